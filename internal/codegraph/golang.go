package codegraph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// goSummary is what a Go file's parse leaves.
type goSummary struct {
	pkg     string
	imports []goImport
	defs    []goDef
	refs    []goRef
}

type goImport struct{ name, path string }

type goDef struct {
	name, kind string
	line, end  int
	exported   bool
}

// refKind tells how a reference names its definition.
type refKind uint8

const (
	// refLocal is an identifier of the file's package: certain when the
	// package defines it (the parser resolved it to a package-level
	// declaration, or left it unresolved, so no local declaration hides it).
	refLocal refKind = iota
	// refQualified is pkg.Name where pkg is no local declaration: certain
	// when pkg names one of the file's imports (the link knows the module's
	// package names), else a refSelector.
	refQualified
	// refSelector is x.Name on a value: a method (or field) the receiver's
	// type would tell; a possible use of every method so named.
	refSelector
	// refKey is a composite literal's key: a struct field or a constant,
	// which only types tell; a possible use.
	refKey
)

type goRef struct {
	kind refKind
	qual string // the package's name in the file, for refQualified
	name string
	line int
	from int // index into defs, -1 at file level
}

func parseGo(p string, src []byte) *summary {
	s := &summary{lang: Go, generated: IsGenerated(src), test: strings.HasSuffix(p, "_test.go")}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
	if f == nil || f.Name == nil {
		return s
	}
	_ = err // a file with syntax errors still gives what it parsed
	gs := &goSummary{pkg: f.Name.Name}
	s.goFile = gs
	line := func(pos token.Pos) int { return fset.Position(pos).Line }
	top := map[any]int{} // declaring node → def index
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		gs.imports = append(gs.imports, goImport{name: name, path: path})
	}
	add := func(node any, name, kind string, start, end token.Pos) int {
		gs.defs = append(gs.defs, goDef{name: name, kind: kind, line: line(start), end: line(end), exported: ast.IsExported(lastPart(name))})
		top[node] = len(gs.defs) - 1
		return len(gs.defs) - 1
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			start := d.Pos()
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			name, kind := d.Name.Name, "func"
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name, kind = receiverName(d.Recv.List[0].Type)+"."+name, "method"
			}
			add(d, name, kind, start, d.End())
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				start, end := spec.Pos(), spec.End()
				if len(d.Specs) == 1 {
					start, end = d.Pos(), d.End()
					if d.Doc != nil {
						start = d.Doc.Pos()
					}
				}
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if sp.Doc != nil && len(d.Specs) > 1 {
						start = sp.Doc.Pos()
					}
					add(sp, sp.Name.Name, "type", start, end)
					if it, ok := sp.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								gs.defs = append(gs.defs, goDef{name: sp.Name.Name + "." + n.Name, kind: "method", line: line(m.Pos()), end: line(m.End()), exported: ast.IsExported(n.Name)})
							}
						}
					}
				case *ast.ValueSpec:
					if sp.Doc != nil && len(d.Specs) > 1 {
						start = sp.Doc.Pos()
					}
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, n := range sp.Names {
						if n.Name != "_" {
							add(n, n.Name, kind, start, end)
							top[sp] = len(gs.defs) - 1
						}
					}
				}
			}
		}
	}
	w := goWalker{gs: gs, line: line, top: top}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			w.from = top[d]
			w.skip = d.Name
			ast.Inspect(d, w.visit)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, spec := range d.Specs {
				w.from = -1
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					w.from, w.skip = top[sp], sp.Name
				case *ast.ValueSpec:
					if i, ok := top[sp]; ok {
						w.from = i
					}
					w.skipNames = sp.Names
				}
				ast.Inspect(spec, w.visit)
				w.skipNames = nil
			}
		}
	}
	return s
}

// goWalker collects a declaration's references.
type goWalker struct {
	gs        *goSummary
	line      func(token.Pos) int
	top       map[any]int
	from      int
	skip      *ast.Ident
	skipNames []*ast.Ident
}

func (w *goWalker) ref(k refKind, qual, name string, pos token.Pos) {
	w.gs.refs = append(w.gs.refs, goRef{kind: k, qual: qual, name: name, line: w.line(pos), from: w.from})
}

func (w *goWalker) visit(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && id.Obj == nil {
			w.ref(refQualified, id.Name, x.Sel.Name, x.Sel.Pos())
			return false
		}
		w.ref(refSelector, "", x.Sel.Name, x.Sel.Pos())
		ast.Inspect(x.X, w.visit)
		return false
	case *ast.CompositeLit:
		if x.Type != nil {
			ast.Inspect(x.Type, w.visit)
		}
		for _, e := range x.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					w.ref(refKey, "", id.Name, id.Pos())
				} else {
					ast.Inspect(kv.Key, w.visit)
				}
				ast.Inspect(kv.Value, w.visit)
				continue
			}
			ast.Inspect(e, w.visit)
		}
		return false
	case *ast.Field:
		// A struct field's or parameter's name declares; its type uses.
		if x.Type != nil {
			ast.Inspect(x.Type, w.visit)
		}
		return false
	case *ast.Ident:
		if x == w.skip || x.Name == "_" {
			return false
		}
		for _, s := range w.skipNames {
			if s == x {
				return false
			}
		}
		if x.Obj != nil {
			if _, ok := w.top[x.Obj.Decl]; !ok {
				return false // a local declaration
			}
		}
		w.ref(refLocal, "", x.Name, x.Pos())
	}
	return true
}

// receiverName is the type name of a method's receiver: T of *T, T[K].
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// importName is the package name an import path gives by default: its
// last element, without a major-version suffix or a "go-" prefix.
func importName(p string) string {
	elems := strings.Split(p, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexAny(name, ".-"); i >= 0 {
		name = name[:i]
	}
	return name
}

func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
