package codegraph

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shopModule is a Go module with several packages, an interface, internal
// and external tests, a renamed import and local names that hide package
// names.
var shopModule = map[string]string{
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

// writeTree makes the files under a new directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func buildTree(t testing.TB, dir string) *Graph {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g, err := Build(context.Background(), root, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// typesUses type-checks the module of files and returns, per definition
// ("pkgpath.Name" or "pkgpath.Type.Method"), the "path:line" of each use
// go/types finds.
func typesUses(t *testing.T, dir string, files map[string]string, module string) map[string][]string {
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

// TestGoUsesMatchTypes compares, for every definition of the module, the
// graph's uses with go/types': every use the type checker finds is in the
// graph (certain or possible), and every certain use of the graph is one the
// type checker finds.
func TestGoUsesMatchTypes(t *testing.T) {
	dir := writeTree(t, shopModule)
	g := buildTree(t, dir)
	want := typesUses(t, dir, shopModule, "example.com/shop")
	if len(g.Defs) < 15 {
		t.Fatalf("got %d definitions, want the module's (at least 15)", len(g.Defs))
	}
	checked := 0
	for i := range g.Defs {
		d := &g.Defs[i]
		if d.Kind == "method" && strings.Count(d.Name, ".") != 1 {
			continue
		}
		name := d.QualifiedName()
		truth := want[name]
		var certain, all []string
		for _, u := range g.Uses(DefID(i)) {
			at := fmt.Sprintf("%s:%d", u.Path, u.Line)
			all = append(all, at)
			if !u.Possible {
				certain = append(certain, at)
			}
		}
		for _, at := range truth {
			if !slices.Contains(all, at) {
				t.Errorf("%s: go/types finds a use at %s, the graph does not (graph: %v)", name, at, all)
			}
		}
		for _, at := range certain {
			if !slices.Contains(truth, at) {
				t.Errorf("%s: the graph has a certain use at %s that go/types does not find (go/types: %v)", name, at, truth)
			}
		}
		checked += len(truth)
	}
	if checked < 20 {
		t.Fatalf("compared %d uses, want the module's (at least 20)", checked)
	}
	// The methods of an interface and of its implementation are possible
	// uses at a call on an interface value.
	get := g.Lookup("example.com/shop/store.Memory.Get")
	if len(get) != 1 {
		t.Fatalf("Lookup(Memory.Get) = %v", get)
	}
	var possible int
	for _, u := range g.Uses(get[0]) {
		if u.Path == "cart/cart.go" && u.From == "Cart.Add" {
			if !u.Possible {
				t.Errorf("c.s.Get in Cart.Add is a certain use of Memory.Get; want possible (only types tell)")
			}
			possible++
		}
	}
	if possible != 1 {
		t.Errorf("Memory.Get: %d possible uses from Cart.Add, want 1", possible)
	}
}

func TestGoLookupAndReferences(t *testing.T) {
	g := buildTree(t, writeTree(t, shopModule))
	one := func(name string) DefID {
		t.Helper()
		ids := g.Lookup(name)
		if len(ids) != 1 {
			t.Fatalf("Lookup(%q) = %v, want one", name, ids)
		}
		return ids[0]
	}
	handle, total, newFn, shadow := one("example.com/shop/api.Handle"), one("example.com/shop/cart.Total"), one("example.com/shop/store.New"), one("Shadow")
	if found, possible := g.References(handle, total); !found || possible {
		t.Errorf("References(Handle, Total) = %v, %v; want true, false", found, possible)
	}
	if found, _ := g.References(shadow, newFn); found {
		t.Errorf("References(Shadow, store.New) = true; Shadow's New is a local variable")
	}
	if found, _ := g.References(one("Other"), total); found {
		t.Errorf("References(Other, Total) = true; Other's Total is a local variable")
	}
	d := g.Def(total)
	if got := g.DefsAt("cart/cart.go", d.Line+2, d.Line+2); !slices.Equal(got, []DefID{total}) {
		t.Errorf("DefsAt(cart.go, %d) = %v, want Total", d.Line+2, got)
	}
	if f := g.File("store/ext_test.go"); f == nil || f.Package != "example.com/shop/store_test" || !f.Test {
		t.Errorf("ext_test.go: got %+v, want the external test package", f)
	}
}
