package diagram

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
)

// TestCodeGraph: the names an agent writes resolve in the code graph, a
// call the code makes corroborates the edge, a call on an interface only
// possibly does, and a call the code does not make does not.
func TestCodeGraph(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"b/b.go": "package b\n\ntype Getter interface{ Get() int }\n\ntype Mem struct{}\n\nfunc (Mem) Get() int { return 1 }\n\nfunc C() int { return 2 }\n",
		"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nfunc A(g b.Getter) int { return g.Get() + b.C() }\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g, err := codegraph.Build(context.Background(), root, codegraph.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cg := CodeGraph{G: g}
	for _, code := range []string{"A", "a.A", "example.com/m/a.A", "Mem.Get", "b.Mem.Get", "example.com/m/b.Mem.Get", "m/b.C"} {
		if !cg.Has(code) {
			t.Errorf("Has(%q) = false, want true", code)
		}
	}
	for _, code := range []string{"a.C", "x.A", "Mem.Put", ""} {
		if cg.Has(code) {
			t.Errorf("Has(%q) = true, want false", code)
		}
	}
	for _, tc := range []struct {
		from, to string
		ok       bool
		reason   string
	}{
		{"a.A", "b.C", true, ""},
		{"a.A", "b.Mem.Get", false, "a.A may use b.Mem.Get, but only types would tell (a method on an interface or an untyped value)"},
		{"b.C", "a.A", false, "b.C does not call or refer to a.A in the code graph"},
	} {
		if ok, reason := cg.Uses(tc.from, tc.to); ok != tc.ok || reason != tc.reason {
			t.Errorf("Uses(%s, %s) = %v, %q; want %v, %q", tc.from, tc.to, ok, reason, tc.ok, tc.reason)
		}
	}
}
