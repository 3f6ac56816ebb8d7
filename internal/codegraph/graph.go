// Package codegraph builds a graph of a working tree's code from the files
// themselves, with no toolchain of the user's and no cgo: Go at the level
// of definitions (go/parser, resolved through the imports and go.mod's
// module path), TypeScript/JavaScript and Python at the level of files and
// the names they import (a lexer of their import statements), every other
// language not at all (its files are grouped by path, and Graph.Coverage
// says so).
//
// A Graph never changes once built; many readers may share it. Build is
// bounded (Limits) and reuses what a Cache parsed of a file whose identity
// (size, modification time) is unchanged, so it may run in the background
// again after every change of the tree.
//
// The API other packages use (cohorts, the summaries and diagrams of issue
// 48) is: Graph.Lookup (definitions by name), Graph.DefsAt (definitions on
// a file's lines), Graph.Uses (a definition's uses), Graph.References (does
// X reference Y), Graph.Imports/ImportedBy (files), Graph.Lang.
package codegraph

import (
	"cmp"
	"slices"
	"strings"
)

// Lang is the language a file's graph was read in; "" for a file the
// graph has no grammar for.
type Lang string

const (
	Go         Lang = "go"
	TypeScript Lang = "typescript"
	JavaScript Lang = "javascript"
	Python     Lang = "python"
)

// DefID indexes Graph.Defs.
type DefID int32

// Def is a definition: for Go a function, method, type, constant or
// variable of a package; for TypeScript/JavaScript and Python a top-level
// exported (or module-level) name of a file.
type Def struct {
	// Name is what Lookup finds it by: "Name" or "Type.Method" (Go), or the
	// exported name (TS/JS, Python).
	Name string `json:"name"`
	// Package is the Go import path, or the file's path for other
	// languages.
	Package string `json:"package"`
	Kind    string `json:"kind"` // func, method, type, const, var, class, interface
	Path    string `json:"path"`
	// Line and EndLine are the 1-based lines the definition spans, its doc
	// comment included.
	Line     int  `json:"line"`
	EndLine  int  `json:"end_line"`
	Exported bool `json:"exported"`
	Test     bool `json:"test,omitempty"`
}

// QualifiedName is the definition's name with its package: "pkg/path.Name".
func (d *Def) QualifiedName() string { return d.Package + "." + d.Name }

// Use is one place that uses a definition.
type Use struct {
	Def  DefID  `json:"-"`
	Path string `json:"path"`
	Line int    `json:"line"`
	// From is the using definition's name ("Type.Method", "Func"), "" at
	// file level (an import statement, a package-level expression).
	From     string `json:"from,omitempty"`
	FromID   DefID  `json:"-"`
	Possible bool   `json:"possible,omitempty"`
}

// File is what the graph knows of one file.
type File struct {
	Path string
	Lang Lang
	// Package is the Go import path (with "_test" for an external test
	// package) or "" for other languages.
	Package string
	// Imports are what this file imports in the tree (sorted): files for
	// TS/JS and Python, package directories for Go; External its imports
	// the graph could not place in the tree (packages).
	Imports  []string
	External []string
	// Generated is set for a file that says it is generated ("Code
	// generated ... DO NOT EDIT.", "@generated").
	Generated bool
	Test      bool
	defs      []DefID // sorted by line
}

// Graph is the code graph of a tree.
type Graph struct {
	Defs  []Def
	files map[string]*File
	paths []string // sorted
	uses  [][]Use  // by DefID, sorted by path, line
	// importedBy maps a file to the files importing it (sorted).
	importedBy map[string][]string
	byName     map[string][]DefID
	// Coverage says, per language met, how the graph covers it (sorted
	// by language).
	Coverage []Coverage
	// Truncated names the limit that stopped the build early ("" when none).
	Truncated string
	Stats     Stats
}

// Coverage is how far the graph reads one language's files.
type Coverage struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	// Level is "definitions", "files" or "paths".
	Level string `json:"level"`
	Note  string `json:"note"`
}

// Stats are the build's figures.
type Stats struct {
	Files, Parsed, Cached, Skipped int
	Bytes                          int64
}

// File returns what the graph knows of path, nil for a file not in it.
func (g *Graph) File(path string) *File {
	if g == nil {
		return nil
	}
	return g.files[path]
}

// Paths returns the graph's files in path order.
func (g *Graph) Paths() []string {
	if g == nil {
		return nil
	}
	return g.paths
}

// Lang returns the language the graph read path in, "" when none.
func (g *Graph) Lang(path string) Lang {
	if f := g.File(path); f != nil {
		return f.Lang
	}
	return ""
}

// Lookup returns the definitions called name: "Name", "Type.Method",
// or qualified "pkg/path.Name" (the package's import path, or the file's
// path for TS/JS and Python).
func (g *Graph) Lookup(name string) []DefID {
	if g == nil {
		return nil
	}
	if ids := g.byName[name]; len(ids) > 0 {
		return ids
	}
	// Qualified: split at the last '.' that leaves a known short name.
	var out []DefID
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		pkg, short := name[:i], name[i+1:]
		for _, id := range g.byName[short] {
			if g.Defs[id].Package == pkg {
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// Def returns the definition id.
func (g *Graph) Def(id DefID) *Def { return &g.Defs[id] }

// DefsAt returns the definitions of path whose lines meet [first, last],
// in line order.
func (g *Graph) DefsAt(path string, first, last int) []DefID {
	f := g.File(path)
	if f == nil {
		return nil
	}
	var out []DefID
	for _, id := range f.defs {
		d := &g.Defs[id]
		if d.Line > last {
			break
		}
		if d.EndLine >= first {
			out = append(out, id)
		}
	}
	return out
}

// DefsIn returns the definitions of path in line order.
func (g *Graph) DefsIn(path string) []DefID {
	if f := g.File(path); f != nil {
		return f.defs
	}
	return nil
}

// Uses returns the places that use id, by path and line.
func (g *Graph) Uses(id DefID) []Use {
	if g == nil || int(id) >= len(g.uses) {
		return nil
	}
	return g.uses[id]
}

// References reports whether definition from uses definition to, and
// whether only possibly (a method whose receiver cannot be told without
// types). found false: no use at all.
func (g *Graph) References(from, to DefID) (found, possible bool) {
	possible = true
	for _, u := range g.Uses(to) {
		if u.FromID == from && u.From != "" {
			found = true
			if !u.Possible {
				return true, false
			}
		}
	}
	return found, found && possible
}

// FileUses reports whether the file path uses definition to (certainly
// unless possible).
func (g *Graph) FileUses(path string, to DefID) (found, possible bool) {
	possible = true
	for _, u := range g.Uses(to) {
		if u.Path == path {
			found = true
			if !u.Possible {
				return true, false
			}
		}
	}
	return found, found && possible
}

// Imports returns the tree's files path imports.
func (g *Graph) Imports(path string) []string {
	if f := g.File(path); f != nil {
		return f.Imports
	}
	return nil
}

// ImportedBy returns the tree's files that import path (a file, or a Go
// package's directory).
func (g *Graph) ImportedBy(path string) []string {
	if g == nil {
		return nil
	}
	return g.importedBy[path]
}

// CoverageOf returns how the graph covers path's language, with a
// sentence for a language it groups by path only.
func (g *Graph) CoverageOf(path string) Coverage {
	lang := LanguageOf(path)
	if g != nil {
		for _, c := range g.Coverage {
			if c.Language == lang {
				return c
			}
		}
	}
	return coverageFor(lang, 1)
}

// finish sorts and indexes what the builder collected.
func (g *Graph) finish() {
	g.paths = g.paths[:0]
	for p := range g.files {
		g.paths = append(g.paths, p)
	}
	slices.Sort(g.paths)
	g.byName = map[string][]DefID{}
	for i := range g.Defs {
		d := &g.Defs[i]
		id := DefID(i)
		g.byName[d.Name] = append(g.byName[d.Name], id)
		if f := g.files[d.Path]; f != nil {
			f.defs = append(f.defs, id)
		}
	}
	for _, f := range g.files {
		slices.SortStableFunc(f.defs, func(a, b DefID) int { return cmp.Compare(g.Defs[a].Line, g.Defs[b].Line) })
	}
	for _, us := range g.uses {
		slices.SortFunc(us, func(a, b Use) int {
			return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.From, b.From), boolCmp(a.Possible, b.Possible))
		})
	}
	for i, us := range g.uses {
		g.uses[i] = slices.CompactFunc(us, func(a, b Use) bool {
			return a.Path == b.Path && a.Line == b.Line && a.From == b.From && a.Possible == b.Possible
		})
	}
	g.importedBy = map[string][]string{}
	for _, p := range g.paths {
		for _, imp := range g.files[p].Imports {
			g.importedBy[imp] = append(g.importedBy[imp], p)
		}
	}
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// addUse records a use of def.
func (g *Graph) addUse(u Use) {
	for int(u.Def) >= len(g.uses) {
		g.uses = append(g.uses, nil)
	}
	g.uses[u.Def] = append(g.uses[u.Def], u)
}
