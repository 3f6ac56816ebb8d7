package cohort

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
)

// Ties between two changed files, strongest first: a stronger tie is
// joined before a weaker one, so that the size cap splits a group where
// its ties are weakest.
const (
	tieFolder    = 1 // one package or folder
	tieImport    = 2 // a TS/JS or Python file imports the other
	tieUse       = 3 // one uses a definition the other changes, or its change uses the other's
	tieGenerated = 4 // a generated file and its source, a lock file and its manifest
	tieTest      = 5 // a test and its subject
)

type tie struct{ a, b, strength int }

// group joins the files' indexes into groups, each in path order, the
// groups in the order of their first file.
func group(g *codegraph.Graph, files []ChangedFile, idx map[string]int, changed [][]codegraph.DefID) [][]int {
	var ties []tie
	add := func(a, b, s int) {
		if a != b {
			ties = append(ties, tie{min(a, b), max(a, b), s})
		}
	}
	for i, f := range files {
		if j, ok := subjectOf(g, f.Path, idx); ok {
			add(i, j, tieTest)
		}
		if j, ok := sourceOf(g, f.Path, idx, files); ok {
			add(i, j, tieGenerated)
		}
		for _, id := range changed[i] {
			for _, u := range g.Uses(id) {
				if j, ok := idx[u.Path]; ok && !u.Possible {
					add(i, j, tieUse)
				}
			}
		}
		if g != nil {
			for _, id := range g.DefsIn(f.Path) {
				for _, u := range g.Uses(id) {
					if j, ok := idx[u.Path]; ok && j != i && !u.Possible && touches(files[j].Touched, u.Line) {
						add(i, j, tieUse)
					}
				}
			}
			if lang := g.Lang(f.Path); lang != codegraph.Go {
				for _, imp := range g.Imports(f.Path) {
					if j, ok := idx[imp]; ok {
						add(i, j, tieImport)
					}
				}
			}
		}
	}
	// One folder: each file with the previous file of its folder and kind.
	last := map[string]int{}
	for i, f := range files {
		dir := folderOf(f.Path) + "\x00" + kindOf(f.Path)
		if j, ok := last[dir]; ok {
			add(j, i, tieFolder)
		}
		last[dir] = i
	}
	slices.SortFunc(ties, func(x, y tie) int {
		return cmp.Or(cmp.Compare(y.strength, x.strength), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	ties = slices.Compact(ties)
	parent := make([]int, len(files))
	size := make([]int, len(files))
	for i := range parent {
		parent[i], size[i] = i, 1
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, t := range ties {
		ra, rb := find(t.a), find(t.b)
		if ra == rb || size[ra]+size[rb] > MaxCohortFiles {
			continue
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra
		size[ra] += size[rb]
	}
	byRoot := map[int][]int{}
	var roots []int
	for i := range files {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], i)
	}
	out := make([][]int, 0, len(roots))
	for _, r := range roots {
		out = append(out, byRoot[r])
	}
	return out
}

// kindOf splits a folder's files where their review differs: dependency
// manifests and CI workflows stand apart from the code and the prose
// beside them.
func kindOf(p string) string {
	switch {
	case isManifest(p) || isLock(p):
		return "dependencies"
	case len(sensitiveKinds(p)) > 0 && slices.Contains(sensitiveKinds(p), "CI workflow"):
		return "ci"
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".rst", ".txt", ".adoc":
		return "docs"
	}
	return "code"
}

func touches(lines []int, n int) bool {
	_, found := slices.BinarySearch(lines, n)
	return found
}

// folderOf is the folder a file is grouped by: its directory; a test
// folder's files (tests/, __tests__/) are grouped with the folder above.
func folderOf(p string) string {
	dir := path.Dir(p)
	switch path.Base(dir) {
	case "__tests__", "test", "tests":
		return path.Dir(dir)
	}
	return dir
}

func isTest(g *codegraph.Graph, p string) bool {
	if f := g.File(p); f != nil {
		return f.Test
	}
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") || strings.Contains("/"+p, "/__tests__/")
}

func isGenerated(g *codegraph.Graph, p string) bool {
	if f := g.File(p); f != nil && f.Generated {
		return true
	}
	base := path.Base(p)
	return strings.HasSuffix(base, ".pb.go") || strings.HasSuffix(base, "_gen.go") || strings.HasSuffix(base, ".generated.ts")
}

// manifestOfLock maps a lock file to the manifest it is generated from.
var manifestOfLock = map[string]string{
	"go.sum":            "go.mod",
	"package-lock.json": "package.json",
	"yarn.lock":         "package.json",
	"pnpm-lock.yaml":    "package.json",
	"Cargo.lock":        "Cargo.toml",
	"poetry.lock":       "pyproject.toml",
	"uv.lock":           "pyproject.toml",
}

func isLock(p string) bool {
	_, ok := manifestOfLock[path.Base(p)]
	return ok
}

// subjectOf finds the changed file a test file tests: x_test.go → x.go,
// a.test.ts → a.ts, __tests__/a.ts → a.ts, test_x.py / tests/test_x.py → x.py.
func subjectOf(g *codegraph.Graph, p string, idx map[string]int) (int, bool) {
	if !isTest(g, p) {
		return 0, false
	}
	dir, base := path.Dir(p), path.Base(p)
	var cands []string
	switch {
	case strings.HasSuffix(base, "_test.go"):
		cands = []string{path.Join(dir, strings.TrimSuffix(base, "_test.go")+".go")}
	case strings.HasSuffix(base, ".py"):
		stem := strings.TrimSuffix(strings.TrimPrefix(base, "test_"), ".py")
		stem = strings.TrimSuffix(stem, "_test")
		cands = []string{path.Join(dir, stem+".py"), path.Join(path.Dir(dir), stem+".py")}
		// tests/test_models.py tests src/pkg/models.py: the one changed file so named.
		var named []string
		for q := range idx {
			if path.Base(q) == stem+".py" && !isTest(g, q) {
				named = append(named, q)
			}
		}
		if len(named) == 1 {
			cands = append(cands, named[0])
		}
	default:
		stem := base
		for _, mark := range []string{".test.", ".spec."} {
			if i := strings.Index(stem, mark); i >= 0 {
				stem = stem[:i]
			}
		}
		stem = strings.TrimSuffix(stem, path.Ext(stem))
		for _, d := range []string{dir, path.Dir(dir)} {
			for _, ext := range []string{".ts", ".tsx", ".js", ".jsx", ".mjs"} {
				cands = append(cands, path.Join(d, stem+ext))
			}
		}
	}
	for _, c := range cands {
		if j, ok := idx[c]; ok && c != p {
			return j, true
		}
	}
	return 0, false
}

// sourceOf finds the changed file a generated one is made from: a lock
// file's manifest, x.pb.go's x.proto, else the first changed file of its
// folder that is not generated.
func sourceOf(g *codegraph.Graph, p string, idx map[string]int, files []ChangedFile) (int, bool) {
	dir, base := path.Dir(p), path.Base(p)
	if m, ok := manifestOfLock[base]; ok {
		j, ok := idx[path.Join(dir, m)]
		return j, ok
	}
	if !isGenerated(g, p) {
		return 0, false
	}
	stem := base
	for _, suf := range []string{"_grpc.pb.go", ".pb.go", ".pb.gw.go", "_gen.go", ".generated.ts", ".go", ".ts", ".py"} {
		if s, ok := strings.CutSuffix(base, suf); ok {
			stem = s
			break
		}
	}
	for _, ext := range []string{".proto", ".graphql", ".yaml", ".yml", ".json", ".sql"} {
		for j, f := range files {
			if path.Base(f.Path) == stem+ext {
				return j, true
			}
		}
	}
	for j, f := range files {
		if folderOf(f.Path) == folderOf(p) && f.Path != p && !isGenerated(g, f.Path) {
			return j, true
		}
	}
	return 0, false
}
