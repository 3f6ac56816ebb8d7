package exchange

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestSyntaxRefusal(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"none", `{"leanreview_review": 1}`, ""},
		{"one", "{\n  \"patch\": [\"a\" \"b\"]\n}\n", "cannot rebase: syntax error at line 2, column 17: missing ',' between array elements"},
		{"several", "{\n \"a\": 1 \"b\": 2 \"c\": 3}", "cannot rebase: syntax error at line 2, column 9: missing ',' between members (and 1 more)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Parse([]byte(c.src)).SyntaxRefusal("rebase")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestSyntaxRefusalOneWording walks the project's non-test Go sources for
// string literals that speak of syntax errors: a refusal of a document
// with them is SyntaxRefusal's, in its one wording, and no other place
// words its own. The parser's own diagnostic (jsonread.go) is the one
// other sentence allowed.
func TestSyntaxRefusalOneWording(t *testing.T) {
	allowed := map[string]bool{
		"internal/exchange/refuse.go":   true, // the one wording
		"internal/exchange/jsonread.go": true, // "too many syntax errors; stopped reporting here", a diagnostic
	}
	root := filepath.Join("..", "..")
	seen := 0
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			seen++
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if ok && lit.Kind == token.STRING && strings.Contains(strings.ToLower(lit.Value), "syntax error") && !allowed[rel] {
					t.Errorf("%s: %s words a syntax-error refusal of its own; use Document.SyntaxRefusal", rel, lit.Value)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 100 {
		t.Fatalf("walked %d Go files, want the project's sources", seen)
	}
}
