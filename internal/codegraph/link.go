package codegraph

import (
	"path"
	"slices"
	"strings"
)

// MaxPossible bounds the methods a call on an untyped receiver is a
// possible use of: a name more types define (String, Close, Get in a
// large tree) tells nothing, and counting it would cost uses times
// methods.
const MaxPossible = 16

// goPackage is one Go package of the tree: its files' definitions by name.
type goPackage struct {
	importPath string
	name       string // the package clause's name
	defs       map[string][]DefID
}

// link turns the files' summaries into the graph: definitions, imports
// placed in the tree, uses.
func link(g *Graph, paths []string, sums []*summary) {
	modules := map[string]string{} // directory → module path
	has := map[string]bool{}
	for i, p := range paths {
		s := sums[i]
		if s == nil {
			continue
		}
		if s.module != "" {
			modules[path.Dir(p)] = s.module
			continue
		}
		if s.lang == "" {
			continue
		}
		has[p] = true
		g.files[p] = &File{Path: p, Lang: s.lang, Generated: s.generated, Test: s.test}
	}
	exists := func(p string) bool { return has[p] }
	pkgs := map[string]*goPackage{}
	methods := map[string][]DefID{} // method name → methods of every type
	fileDefs := make([][]DefID, len(paths))
	for i, p := range paths {
		s := sums[i]
		if s == nil || !has[p] {
			continue
		}
		pkg := p // TS/JS and Python definitions are the file's
		var gp *goPackage
		if gs := s.goFile; gs != nil {
			pkg = goImportPath(path.Dir(p), modules)
			if strings.HasSuffix(gs.pkg, "_test") && s.test {
				pkg += "_test"
			}
			g.files[p].Package = pkg
			gp = pkgs[pkg]
			if gp == nil {
				gp = &goPackage{importPath: pkg, name: gs.pkg, defs: map[string][]DefID{}}
				pkgs[pkg] = gp
			}
		}
		var defs []goDef
		if s.goFile != nil {
			defs = s.goFile.defs
		} else if s.script != nil {
			defs = s.script.defs
		}
		for _, d := range defs {
			id := DefID(len(g.Defs))
			g.Defs = append(g.Defs, Def{Name: d.name, Package: pkg, Kind: d.kind, Path: p, Line: d.line, EndLine: d.end, Exported: d.exported, Test: s.test})
			fileDefs[i] = append(fileDefs[i], id)
			if gp != nil {
				gp.defs[d.name] = append(gp.defs[d.name], id)
				if d.kind == "method" {
					methods[lastPart(d.name)] = append(methods[lastPart(d.name)], id)
				}
			}
		}
	}
	g.uses = make([][]Use, len(g.Defs))
	mods := newPyModules(paths)
	byPath := map[string][]DefID{}
	for i, p := range paths {
		if len(fileDefs[i]) > 0 {
			byPath[p] = fileDefs[i]
		}
	}
	for i, p := range paths {
		s := sums[i]
		if s == nil || !has[p] {
			continue
		}
		switch {
		case s.goFile != nil:
			linkGo(g, p, s.goFile, fileDefs[i], pkgs, methods)
		case s.script != nil:
			linkScript(g, p, s, exists, mods, byPath)
		}
	}
}

// goImportPath is the import path of the Go package in dir: its module's
// path and the directory under the module's.
func goImportPath(dir string, modules map[string]string) string {
	for d := dir; ; d = path.Dir(d) {
		if mod, ok := modules[d]; ok {
			if d == dir {
				return mod
			}
			rel := strings.TrimPrefix(dir, d+"/")
			if d == "." {
				rel = dir
			}
			return mod + "/" + rel
		}
		if d == "." || d == "/" {
			return dir // no go.mod: the directory stands for the path
		}
	}
}

func linkGo(g *Graph, p string, gs *goSummary, defs []DefID, pkgs map[string]*goPackage, methods map[string][]DefID) {
	f := g.files[p]
	own := pkgs[f.Package]
	for _, imp := range gs.imports {
		if tp := pkgs[imp.path]; tp != nil {
			for _, d := range tp.defs {
				if q := g.Defs[d[0]].Path; q != "" {
					f.Imports = appendPath(f.Imports, path.Dir(q))
				}
				break
			}
		} else {
			f.External = append(f.External, imp.path)
		}
	}
	// The imports as this file names them.
	named := map[string]*goPackage{}
	for _, imp := range gs.imports {
		tp := pkgs[imp.path]
		name := imp.name
		switch {
		case name == "_" || name == ".":
			continue
		case name == "" && tp != nil:
			name = tp.name
		case name == "":
			name = importName(imp.path)
		}
		named[name] = tp // nil: outside the tree
	}
	use := func(id DefID, r goRef, possible bool) {
		u := Use{Def: id, Path: p, Line: r.line, Possible: possible, FromID: -1}
		if r.from >= 0 && r.from < len(defs) {
			u.FromID = defs[r.from]
			u.From = g.Defs[u.FromID].Name
			if u.FromID == id {
				return // a definition's own body is no use of it
			}
		}
		g.addUse(u)
	}
	local := func(r goRef, name string, possible bool) {
		for _, id := range own.defs[name] {
			use(id, r, possible)
		}
	}
	for _, r := range gs.refs {
		switch r.kind {
		case refLocal:
			local(r, r.name, false)
		case refKey:
			local(r, r.name, true)
		case refQualified:
			if tp, ok := named[r.qual]; ok && len(own.defs[r.qual]) == 0 {
				if tp != nil {
					for _, id := range tp.defs[r.name] {
						use(id, r, false)
					}
				}
				continue
			}
			local(r, r.qual, false)
			fallthrough
		case refSelector:
			if ms := methods[r.name]; len(ms) <= MaxPossible {
				for _, id := range ms {
					use(id, r, true)
				}
			}
		}
	}
}

func linkScript(g *Graph, p string, s *summary, exists func(string) bool, mods pyModules, byPath map[string][]DefID) {
	f := g.files[p]
	for _, imp := range s.script.imports {
		target := ""
		names := imp.names
		if s.lang == Python {
			target = resolvePython(p, imp.spec, mods, exists)
			// from pkg import sub: a submodule is a file of its own.
			var rest []string
			for _, n := range names {
				sub := ""
				if target != "" && path.Base(target) == "__init__.py" {
					sub = resolvePython(target, "."+n, mods, exists)
				} else if strings.HasPrefix(imp.spec, ".") && strings.Trim(imp.spec, ".") == "" {
					sub = resolvePython(p, imp.spec+n, mods, exists)
				}
				if sub != "" {
					f.Imports = appendPath(f.Imports, sub)
					continue
				}
				rest = append(rest, n)
			}
			names = rest
			if len(imp.names) > 0 && len(rest) == 0 {
				continue // every name a submodule: the package's own file is no tie
			}
		} else {
			target = resolveScript(p, imp.spec, exists)
		}
		if target == "" {
			if !strings.HasPrefix(imp.spec, ".") {
				f.External = append(f.External, imp.spec)
			}
			continue
		}
		f.Imports = appendPath(f.Imports, target)
		for _, n := range names {
			for _, id := range byPath[target] {
				if g.Defs[id].Name == n {
					g.addUse(Use{Def: id, Path: p, Line: imp.line, FromID: -1})
				}
			}
		}
	}
	slices.Sort(f.External)
	f.External = slices.Compact(f.External)
}

func appendPath(ps []string, p string) []string {
	if i, found := slices.BinarySearch(ps, p); !found {
		ps = slices.Insert(ps, i, p)
	}
	return ps
}
