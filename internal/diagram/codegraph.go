package diagram

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
)

// CodeGraph is the working tree's code graph as a diagram's Graph. A
// node's code names a definition as an agent would write it: "Name",
// "Type.Method", "pkg.Name" with the package's last path element, or the
// full import path ("example.com/shop/store.Memory.Get").
type CodeGraph struct{ G *codegraph.Graph }

// Has reports whether code names a definition of the graph.
func (c CodeGraph) Has(code string) bool { return len(c.resolve(code)) > 0 }

// Uses reports whether a definition code names as from uses one to names.
// A use the graph only possibly sees (a method on a value whose type only
// types would tell) does not corroborate the edge: it stays unverified,
// saying so.
func (c CodeGraph) Uses(from, to string) (bool, string) {
	possible := false
	for _, f := range c.resolve(from) {
		for _, t := range c.resolve(to) {
			found, maybe := c.G.References(f, t)
			if found && !maybe {
				return true, ""
			}
			possible = possible || found
		}
	}
	if possible {
		return false, from + " may use " + to + ", but only types would tell (a method on an interface or an untyped value)"
	}
	return false, from + " does not call or refer to " + to + " in the code graph"
}

// resolve returns the definitions code names: the graph's own lookup, else
// a qualified name whose package is given by its last path element(s).
func (c CodeGraph) resolve(code string) []codegraph.DefID {
	if c.G == nil || code == "" {
		return nil
	}
	if ids := c.G.Lookup(code); len(ids) > 0 && (strings.Contains(code, "/") || !strings.Contains(code, ".") || c.G.Def(ids[0]).Name == code) {
		return ids
	}
	var out []codegraph.DefID
	for i := strings.IndexByte(code, '.'); i > 0 && len(out) == 0; {
		pkg, name := code[:i], code[i+1:]
		for _, id := range c.G.Lookup(name) {
			if d := c.G.Def(id); d.Name == name && (d.Package == pkg || strings.HasSuffix(d.Package, "/"+pkg)) {
				out = append(out, id)
			}
		}
		j := strings.IndexByte(code[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return out
}
