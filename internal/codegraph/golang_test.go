package codegraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/testgotypes"
)

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

// TestGoUsesMatchTypes compares, for every definition of the module, the
// graph's uses with go/types': every use the type checker finds is in the
// graph (certain or possible), and every certain use of the graph is one the
// type checker finds.
func TestGoUsesMatchTypes(t *testing.T) {
	dir := writeTree(t, testgotypes.ShopModule)
	g := buildTree(t, dir)
	want := testgotypes.Uses(t, testgotypes.ShopModule, "example.com/shop")
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
	g := buildTree(t, writeTree(t, testgotypes.ShopModule))
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
