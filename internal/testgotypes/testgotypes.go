// Package testgotypes gives tests the truth the code graph is held to:
// the uses go/types finds in a small module the test writes.
package testgotypes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ShopModule is a Go module with several packages, an interface, internal
// and external tests, a renamed import and local names that hide package
// names.
var ShopModule = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"store/store.go": `package store

// Item is a thing sold.
type Item struct {
	Name  string
	Price int
}

// Store keeps items.
type Store interface {
	Get(id string) (Item, bool)
	Put(it Item)
}

const MaxItems = 100

var Default = New()

// Memory is a Store in memory.
type Memory struct{ items map[string]Item }

func New() *Memory { return &Memory{items: map[string]Item{}} }

func (m *Memory) Get(id string) (Item, bool) {
	it, ok := m.items[id]
	return it, ok
}

func (m *Memory) Put(it Item) {
	if len(m.items) < MaxItems {
		m.items[it.Name] = it
	}
}
`,
	"store/store_test.go": `package store

func checkGet() bool {
	m := New()
	m.Put(Item{Name: "a"})
	_, ok := m.Get("a")
	return ok && MaxItems > 0
}
`,
	"store/ext_test.go": `package store_test

import "example.com/shop/store"

func use() {
	var s store.Store = store.New()
	s.Get("x")
}
`,
	"cart/cart.go": `package cart

import st "example.com/shop/store"

type Cart struct{ s st.Store }

func (c *Cart) Add(id string) int {
	it, ok := c.s.Get(id)
	if !ok {
		return 0
	}
	return it.Price
}

func Total(items []st.Item) int {
	n := 0
	for _, it := range items {
		n += it.Price
	}
	if len(items) > st.MaxItems {
		return -1
	}
	return n
}
`,
	"cart/local.go": `package cart

func Shadow() int {
	New := 3
	return New
}

func helper() int { return Total(nil) }

func Other() int {
	Total := 1
	return Total
}

func makeCart() *Cart {
	st := 2
	_ = st
	return &Cart{}
}
`,
	"api/api.go": `package api

import (
	"example.com/shop/cart"
	"example.com/shop/store"
)

func Handle() int {
	c := &cart.Cart{}
	_ = store.New()
	_ = store.Default
	return c.Add("x") + cart.Total(nil)
}
`,
}

// Uses type-checks the module of files and returns, per definition
// ("pkgpath.Name" or "pkgpath.Type.Method"), the "path:line" of each use
// go/types finds.
func Uses(t testing.TB, files map[string]string, module string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	byPkg := map[string][]*ast.File{}
	var names []string
	for name := range files {
		if strings.HasSuffix(name, ".go") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg := module + "/" + filepath.Dir(name)
		if strings.HasSuffix(f.Name.Name, "_test") {
			pkg += "_test"
		}
		byPkg[pkg] = append(byPkg[pkg], f)
	}
	out := map[string][]string{}
	checked := map[string]*types.Package{}
	var imp importerFunc
	imp = func(path string) (*types.Package, error) {
		if p := checked[path]; p != nil {
			return p, nil
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp}
		p, err := conf.Check(path, fset, byPkg[path], info)
		if err != nil {
			return nil, fmt.Errorf("type-checking %s: %w", path, err)
		}
		checked[path] = p
		for id, obj := range info.Uses {
			name := objectName(obj)
			if name == "" {
				continue
			}
			pos := fset.Position(id.Pos())
			out[name] = append(out[name], fmt.Sprintf("%s:%d", pos.Filename, pos.Line))
		}
		return p, nil
	}
	var pkgs []string
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		if _, err := imp(p); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// objectName names a package-level object or method as the graph does; ""
// for a local, a field, or the universe's.
func objectName(obj types.Object) string {
	if obj.Pkg() == nil {
		return ""
	}
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			rt := recv.Type()
			if p, ok := rt.(*types.Pointer); ok {
				rt = p.Elem()
			}
			if n, ok := rt.(*types.Named); ok {
				return obj.Pkg().Path() + "." + n.Obj().Name() + "." + obj.Name()
			}
			return ""
		}
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}
