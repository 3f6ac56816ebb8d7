package cohort

import (
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

func usesOf(s *Shape, def string) []string {
	for _, c := range s.Cohorts {
		for _, b := range c.BlastRadius {
			if b.Definition == def {
				var out []string
				for _, u := range b.Uses {
					out = append(out, u.Path)
				}
				return out
			}
		}
	}
	return nil
}

func TestTypeScriptProjectShape(t *testing.T) {
	repo := testreviews.NewGitRepo(t, map[string]string{
		"package.json":             "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"react\": \"^17.0.2\",\n    \"zod\": \"^3.22.0\"\n  }\n}\n",
		"src/auth/session.ts":      "export function login(u: string) {\n  return u;\n}\n",
		"src/auth/session.test.ts": "import { login } from './session';\nlogin('a');\n",
		"src/ui/app.tsx":           "import { login } from '../auth/session';\nexport function App() { return login('x'); }\n",
		"src/ui/button.tsx":        "export const Button = () => null;\n",
		"src/ui/theme.ts":          "export const dark = true;\n",
	})
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	head := repo.Commit("change", map[string]string{
		"package.json":        "{\n  \"name\": \"web\",\n  \"dependencies\": {\n    \"react\": \"^18.2.0\",\n    \"zod\": \"^3.22.0\",\n    \"clsx\": \"^2.1.0\"\n  }\n}\n",
		"src/auth/session.ts": "export function login(u: string) {\n  return u.trim();\n}\n",
		"src/ui/button.tsx":   "export const Button = () => 'button';\n",
		"src/ui/theme.ts":     "export const dark = false;\n",
	})
	s, _, _ := shapeOf(t, repo.Dir, repo.Diff(base, head))
	want := [][]string{{"package.json"}, {"src/auth/session.ts"}, {"src/ui/button.tsx", "src/ui/theme.ts"}}
	if got := cohortFiles(s); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("cohorts = %v, want %v", got, want)
	}
	if got, want := usesOf(s, "src/auth/session.ts.login"), []string{"src/auth/session.test.ts", "src/ui/app.tsx"}; !slices.Equal(got, want) {
		t.Errorf("uses of login = %v, want %v", got, want)
	}
	auth := s.Cohorts[1]
	if !slices.Contains(auth.Reasons, "security-sensitive (auth)") || !slices.Contains(auth.Reasons, "no test change (test gap: login)") {
		t.Errorf("auth reasons = %q", auth.Reasons)
	}
	wantDeps := []string{"upgraded react ^17.0.2 ^18.2.0 true", "added clsx  ^2.1.0 false"}
	var got []string
	for _, d := range s.Deps {
		got = append(got, strings.Join([]string{d.Change, d.Name, d.Old, d.New, map[bool]string{true: "true", false: "false"}[d.Major]}, " "))
	}
	if !slices.Equal(got, wantDeps) {
		t.Errorf("deps = %q, want %q", got, wantDeps)
	}
	if c := s.Coverage; len(c) != 1 || c[0].Language != "typescript" || c[0].Level != "files" {
		t.Errorf("coverage = %+v", c)
	}
}

func TestPythonPackageShape(t *testing.T) {
	repo := testreviews.NewGitRepo(t, map[string]string{
		"pyproject.toml":       "[project]\nname = \"shop\"\ndependencies = [\n  \"requests>=2.28\",\n  \"attrs==22.1\",\n]\n",
		"requirements-dev.txt": "pytest==7.4.0\nblack==23.1.0\n",
		"src/shop/__init__.py": "",
		"src/shop/models.py":   "class Item:\n    pass\n\ndef price(item):\n    return 1\n",
		"src/shop/api.py":      "from shop.models import price\n\ndef handle():\n    return price(None)\n",
		"tests/test_models.py": "from shop.models import price\n\ndef test_price():\n    assert price(None) == 1\n",
	})
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	head := repo.Commit("change", map[string]string{
		"pyproject.toml":       "[project]\nname = \"shop\"\ndependencies = [\n  \"requests>=2.31\",\n  \"attrs==21.4\",\n]\n",
		"requirements-dev.txt": "pytest==8.0.0\n",
		"src/shop/models.py":   "class Item:\n    pass\n\ndef price(item):\n    return 2\n",
		"tests/test_models.py": "from shop.models import price\n\ndef test_price():\n    assert price(None) == 2\n",
	})
	s, _, _ := shapeOf(t, repo.Dir, repo.Diff(base, head))
	want := [][]string{{"pyproject.toml", "requirements-dev.txt"}, {"src/shop/models.py", "tests/test_models.py"}}
	if got := cohortFiles(s); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("cohorts = %v, want %v", got, want)
	}
	if got, want := usesOf(s, "src/shop/models.py.price"), []string{"src/shop/api.py", "tests/test_models.py"}; !slices.Equal(got, want) {
		t.Errorf("uses of price = %v, want %v", got, want)
	}
	var got []string
	for _, d := range s.Deps {
		got = append(got, d.Manifest+" "+d.Change+" "+d.Name+" "+d.Old+" "+d.New)
	}
	wantDeps := []string{
		"pyproject.toml upgraded requests >=2.28 >=2.31",
		"pyproject.toml downgraded attrs ==22.1 ==21.4",
		"requirements-dev.txt upgraded pytest ==7.4.0 ==8.0.0",
		"requirements-dev.txt removed black ==23.1.0 ",
	}
	if !slices.Equal(got, wantDeps) {
		t.Errorf("deps = %q\nwant %q", got, wantDeps)
	}
}

// TestMixedRepoSaysWhatIsGroupedByPath: Rust has no graph; its files are
// grouped by folder, and the shape says so; Cargo.toml's changes are read.
func TestMixedRepoSaysWhatIsGroupedByPath(t *testing.T) {
	repo := testreviews.NewGitRepo(t, map[string]string{
		"Cargo.toml":                   "[package]\nname = \"core\"\n\n[dependencies]\nserde = \"1.0\"\ntokio = { version = \"1.28\", features = [\"full\"] }\n",
		"core/src/lib.rs":              "pub fn a() {}\n",
		"core/src/util.rs":             "pub fn b() {}\n",
		"web/main.py":                  "print(1)\n",
		"core/migrations/001_init.sql": "create table t (id int);\n",
	})
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	head := repo.Commit("change", map[string]string{
		"Cargo.toml":                  "[package]\nname = \"core\"\n\n[dependencies]\nserde = \"2.0\"\ntokio = { version = \"1.32\", features = [\"full\"] }\n",
		"core/src/lib.rs":             "pub fn a() { b() }\n",
		"core/src/util.rs":            "pub fn b() { }\n",
		"web/main.py":                 "print(2)\n",
		"core/migrations/002_add.sql": "alter table t add column n int;\n",
	})
	s, _, _ := shapeOf(t, repo.Dir, repo.Diff(base, head))
	want := [][]string{{"Cargo.toml"}, {"core/migrations/002_add.sql"}, {"core/src/lib.rs", "core/src/util.rs"}, {"web/main.py"}}
	if got := cohortFiles(s); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("cohorts = %v, want %v", got, want)
	}
	var notes []string
	for _, c := range s.Coverage {
		notes = append(notes, c.Note)
	}
	if !slices.Contains(notes, "no code graph for Rust: grouped by path") {
		t.Errorf("coverage notes = %q", notes)
	}
	if !slices.Contains(s.Cohorts[1].Reasons, "database migration") {
		t.Errorf("migration reasons = %q", s.Cohorts[1].Reasons)
	}
	var got []string
	for _, d := range s.Deps {
		got = append(got, d.Change+" "+d.Name+" "+d.Old+" "+d.New)
		if d.Name == "serde" && !d.Major {
			t.Errorf("serde 1.0 → 2.0 not flagged major")
		}
	}
	if want := []string{"upgraded serde 1.0 2.0", "upgraded tokio 1.28 1.32"}; !slices.Equal(got, want) {
		t.Errorf("deps = %q, want %q", got, want)
	}
}

// TestSizeCapSplitsAFolder: 30 changed files of one folder make cohorts of
// at most MaxCohortFiles.
func TestSizeCapSplitsAFolder(t *testing.T) {
	var files []ChangedFile
	for i := range 30 {
		files = append(files, ChangedFile{Path: "pkg/f" + string(rune('a'+i/10)) + string(rune('a'+i%10)) + ".go", Status: "modified", Added: 1})
	}
	s := Compute(Input{Files: files})
	if len(s.Cohorts) != 3 {
		t.Fatalf("%d cohorts, want 3", len(s.Cohorts))
	}
	seen := map[string]bool{}
	for _, c := range s.Cohorts {
		if len(c.Files) > MaxCohortFiles {
			t.Errorf("cohort %s has %d files", c.Name, len(c.Files))
		}
		if seen[c.Name] || seen[c.Key] {
			t.Errorf("cohort name or key %q/%q twice", c.Name, c.Key)
		}
		seen[c.Name], seen[c.Key] = true, true
	}
	if s.Coverage[0].Note != "no code graph built: grouped by path" {
		t.Errorf("coverage without a graph = %+v", s.Coverage)
	}
	_ = codegraph.Go
}
