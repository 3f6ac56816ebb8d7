package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/leanreview/lreview-lsp"

// goPackage is one directory of Go code in the repository, as parsed
// without its tests.
type goPackage struct {
	dir     string // relative to the repository, slash-separated
	name    string
	doc     string
	imports map[string]bool // the project's packages it imports, by directory
	files   map[string]*ast.File
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// packages parses every directory under cmd/, internal/ and schema/ that
// holds non-test Go files.
func packages(t *testing.T, root string) []*goPackage {
	t.Helper()
	var pkgs []*goPackage
	for _, top := range []string{"cmd", "internal", "schema"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if p := parseDir(t, root, path); p != nil {
				pkgs = append(pkgs, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return pkgs
}

func parseDir(t *testing.T, root, dir string) *goPackage {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, dir)
	p := &goPackage{dir: filepath.ToSlash(rel), imports: map[string]bool{}, files: map[string]*ast.File{}}
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p.name = f.Name.Name
		p.files[n] = f
		if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package ") || f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Command ") {
			p.doc = f.Doc.Text()
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, module+"/"); ok {
				p.imports[rest] = true
			}
		}
	}
	if len(p.files) == 0 {
		return nil
	}
	return p
}

func architecture(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text of the "## heading" section of a Markdown
// document, up to the next second-level heading.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n## "+heading+"\n")
	if i < 0 {
		t.Fatalf("ARCHITECTURE.md has no section %q", heading)
	}
	rest := doc[i+len(heading)+5:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestEveryPackageIsInArchitecture: each package is named by its
// directory in ARCHITECTURE.md, so a newcomer finds every one there.
func TestEveryPackageIsInArchitecture(t *testing.T) {
	root := repoRoot(t)
	doc := architecture(t, root)
	for _, p := range packages(t, root) {
		if !strings.Contains(doc, p.dir) {
			t.Errorf("ARCHITECTURE.md does not name the package %s", p.dir)
		}
	}
}

// syncFields lists the fields of struct types whose type is sync.<kind>
// (kind Mutex, RWMutex or Once), as "Type.field", by file.
func syncFields(p *goPackage, kinds ...string) map[string]string {
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	found := map[string]string{}
	for name, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				sel, ok := field.Type.(*ast.SelectorExpr)
				if !ok || !want[sel.Sel.Name] {
					continue
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "sync" {
					continue
				}
				for _, id := range field.Names {
					found[ts.Name.Name+"."+id.Name] = name
				}
			}
			return true
		})
	}
	return found
}

// TestEveryServerLockIsInTheLockOrder: each mutex of the server's
// packages (the session and its transport) is placed in "Lock order",
// which is what keeps the server free of deadlocks as locks are added,
// and each package's mutexes are counted there ("`lsp` has nine
// mutexes, `transport` two").
func TestEveryServerLockIsInTheLockOrder(t *testing.T) {
	root := repoRoot(t)
	order := section(t, architecture(t, root), "Lock order")
	server := map[string]bool{"internal/lsp": true, "internal/transport": true}
	for _, p := range packages(t, root) {
		if !server[p.dir] {
			continue
		}
		delete(server, p.dir)
		for field := range syncFields(p, "Mutex", "RWMutex") {
			if !strings.Contains(order, "`"+field+"`") {
				t.Errorf("ARCHITECTURE.md's Lock order does not place %s.%s", p.dir, field)
			}
		}
		count := regexp.MustCompile("`" + p.name + "` (?:has )?(\\w+)").FindStringSubmatch(order)
		if n := len(syncFields(p, "Mutex", "RWMutex")); count == nil || count[1] != spelled(n) {
			t.Errorf("Lock order counts %v mutexes for `%s`; %s has %d (%s)", count, p.name, p.dir, n, spelled(n))
		}
	}
	for dir := range server {
		t.Errorf("the server package %s is gone: update this test's list", dir)
	}
}

func spelled(n int) string {
	names := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	if n < len(names) {
		return names[n]
	}
	return strconv.Itoa(n)
}

// TestEveryLazyFieldIsInTheTable: state made on first use (a sync.Once
// field) is a row of "What a snapshot owns"'s table, naming its file and
// the field or its type, with its owner and bound.
func TestEveryLazyFieldIsInTheTable(t *testing.T) {
	root := repoRoot(t)
	table := section(t, architecture(t, root), "What a snapshot owns")
	for _, p := range packages(t, root) {
		if strings.HasPrefix(p.dir, "internal/bench") || p.dir == "internal/metamodel" {
			continue // tools and tests, outside the server
		}
		for field, file := range syncFields(p, "Once") {
			path := strings.TrimPrefix(p.dir, "internal/") + "/" + file
			typ, name, _ := strings.Cut(field, ".")
			row := rowNaming(table, path)
			if row == "" || !strings.Contains(row, typ) && !strings.Contains(row, name) {
				t.Errorf("the lazy-state table has no row for %s in %s", field, path)
			}
		}
	}
}

// rowNaming returns the table rows that name path, joined.
func rowNaming(table, path string) string {
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "|") && strings.Contains(line, path) {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "\n")
}

// TestPackageDocsNameWhatTheyUse: a package's doc that names another of
// the project's packages (as internal/x, `x`, x.Name or "the x
// package") imports it: the doc describes the code, not an older one.
func TestPackageDocsNameWhatTheyUse(t *testing.T) {
	root := repoRoot(t)
	pkgs := packages(t, root)
	byName := map[string][]string{}
	for _, p := range pkgs {
		if strings.HasPrefix(p.dir, "internal/") && !strings.Contains(p.dir[len("internal/"):], "/") {
			byName[p.name] = append(byName[p.name], p.dir)
		}
	}
	mention := regexp.MustCompile("internal/(\\w+)|`(\\w+)`|\\b(\\w+)\\.[A-Z]\\w*|\\b(\\w+) (?:and (\\w+) )?packages?\\b")
	for _, p := range pkgs {
		if p.doc == "" {
			continue
		}
		named := map[string]bool{}
		for _, m := range mention.FindAllStringSubmatch(p.doc, -1) {
			for _, w := range m[1:] {
				if w != "" {
					named[w] = true
				}
			}
		}
		var wrong []string
		for w := range named {
			for _, dir := range byName[w] {
				if dir != p.dir && !p.imports[dir] {
					wrong = append(wrong, dir)
				}
			}
		}
		sort.Strings(wrong)
		if len(wrong) > 0 {
			t.Errorf("%s's doc names %s, which it does not import", p.dir, strings.Join(wrong, ", "))
		}
	}
}

// TestEveryPackageIsInContributing: CONTRIBUTING.md's layout table has a
// row naming each internal package.
func TestEveryPackageIsInContributing(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| `internal/") {
			rows = append(rows, line)
		}
	}
	table := strings.Join(rows, "\n")
	for _, p := range packages(t, root) {
		if strings.HasPrefix(p.dir, "internal/") && !strings.Contains(table, "`"+p.dir+"`") {
			t.Errorf("CONTRIBUTING.md's layout table has no row for %s", p.dir)
		}
	}
}
