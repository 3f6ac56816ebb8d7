package cohort

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
)

// MaxCohortFiles caps a cohort: a reviewer of a 60-file change reads
// groups of about a dozen files; a larger group is split where its ties
// are weakest.
const MaxCohortFiles = 12

// Input is what the shape is computed from.
type Input struct {
	Files []ChangedFile
	// Graph is the working tree's code graph; nil groups by path alone.
	Graph *codegraph.Graph
	// Comments counts the active comments per path.
	Comments map[string]int
	// TreeLines, when not nil, returns the lines of a file in the working
	// tree (nil when absent): the dependency reader learns from it which
	// section of a manifest a hunk starts in.
	TreeLines func(path string) []string
	// Marks are the review's progress marks by cohort key.
	Marks map[string]Mark
}

// Shape is a review's shape.
type Shape struct {
	Cohorts []*Cohort `json:"cohorts"`
	// Coverage says how the graph covers each language of the patch's
	// files ("no code graph for Rust: grouped by path").
	Coverage []codegraph.Coverage `json:"coverage"`
	Deps     []DepChange          `json:"dependency_changes"`
	byPath   map[string]*Cohort
}

// Cohort is a group of the patch's files.
type Cohort struct {
	// Key is derived from the cohort's principal file, the first in path
	// order of its files that are neither tests nor generated: it stays the
	// same across a rebase and more commits while that file is in it.
	Key   string `json:"key"`
	Name  string `json:"name"`
	Rank  int    `json:"rank"`
	Level string `json:"level"` // high, medium, low
	Score int    `json:"score"`
	// Files are the cohort's paths, in path order.
	Files   []string `json:"files"`
	Reasons []string `json:"reasons"`
	// BlastRadius lists each changed definition with its uses.
	BlastRadius []Blast `json:"blast_radius"`
	// UsesOutside counts the uses of its changed definitions in files not
	// in the cohort (Possible: of them, those only types would confirm).
	UsesOutside  int `json:"uses_outside"`
	PossibleOut  int `json:"possible_uses_outside"`
	Comments     int `json:"active_comments"`
	ChangedLines int `json:"changed_lines"`
	// Reviewed is "" (not marked), "reviewed", or "changed" (marked, but
	// its files changed since).
	Reviewed  string `json:"reviewed"`
	principal string
	hasTest   bool
}

// Blast is one changed definition and where the tree uses it.
type Blast struct {
	Definition string          `json:"definition"`
	Kind       string          `json:"kind"`
	Path       string          `json:"path"`
	Line       int             `json:"line"`
	Exported   bool            `json:"exported"`
	Uses       []codegraph.Use `json:"uses"`
	Outside    int             `json:"outside"`
	Possible   int             `json:"possible"`
	id         codegraph.DefID
}

// Of returns the cohort holding path, nil for none.
func (s *Shape) Of(path string) *Cohort {
	if s == nil {
		return nil
	}
	return s.byPath[path]
}

// Compute gives the shape of in.
func Compute(in Input) *Shape {
	files := slices.Clone(in.Files)
	slices.SortStableFunc(files, func(a, b ChangedFile) int { return cmp.Compare(a.Path, b.Path) })
	files = slices.CompactFunc(files, func(a, b ChangedFile) bool { return a.Path == b.Path })
	idx := map[string]int{}
	for i, f := range files {
		idx[f.Path] = i
	}
	changed := changedDefs(in.Graph, files)
	groups := group(in.Graph, files, idx, changed)
	s := &Shape{byPath: map[string]*Cohort{}}
	for _, g := range groups {
		c := &Cohort{}
		for _, i := range g {
			c.Files = append(c.Files, files[i].Path)
			s.byPath[files[i].Path] = c
		}
		s.Cohorts = append(s.Cohorts, c)
	}
	s.Deps = Dependencies(files, in.TreeLines)
	for _, c := range s.Cohorts {
		describe(c, in, files, idx, changed, s.Deps)
	}
	name(s.Cohorts)
	slices.SortStableFunc(s.Cohorts, func(a, b *Cohort) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Key, b.Key))
	})
	for i, c := range s.Cohorts {
		c.Rank = i + 1
		c.Reviewed = in.Marks[c.Key].state(c, files, idx)
	}
	s.Coverage = coverage(in.Graph, files)
	return s
}

// changedDefs returns, per file index, the graph's definitions its change
// touches.
func changedDefs(g *codegraph.Graph, files []ChangedFile) [][]codegraph.DefID {
	out := make([][]codegraph.DefID, len(files))
	if g == nil {
		return out
	}
	for i, f := range files {
		if f.Status == "deleted" {
			continue
		}
		var ids []codegraph.DefID
		t := f.Touched
		for j := 0; j < len(t); {
			k := j
			for k+1 < len(t) && t[k+1] == t[k]+1 {
				k++
			}
			ids = append(ids, g.DefsAt(f.Path, t[j], t[k])...)
			j = k + 1
		}
		slices.Sort(ids)
		out[i] = slices.Compact(ids)
	}
	return out
}

// principal is the file a cohort's key comes from.
func principal(g *codegraph.Graph, fs []string) string {
	for _, p := range fs {
		if !isTest(g, p) && !isGenerated(g, p) && !isLock(p) {
			return p
		}
	}
	return fs[0]
}

// KeyOf is the cohort key of a principal file.
func KeyOf(principal string) string {
	sum := sha256.Sum256([]byte("cohort\x00" + principal))
	return "c" + hex.EncodeToString(sum[:6])
}

// name gives each cohort its name: its folder, with its principal
// changed definitions, or its principal file where two would share one.
func name(cs []*Cohort) {
	count := map[string]int{}
	for _, c := range cs {
		c.Name = commonDir(c.Files)
		if defs := shortDefs(c.BlastRadius); defs != "" {
			c.Name += " · " + defs
		}
		count[c.Name]++
	}
	for _, c := range cs {
		if count[c.Name] > 1 {
			c.Name += " · " + path.Base(c.principal)
		}
	}
}

// shortDefs names up to two exported changed definitions, most used first.
func shortDefs(bs []Blast) string {
	var ex []Blast
	for _, b := range bs {
		if b.Exported {
			ex = append(ex, b)
		}
	}
	slices.SortStableFunc(ex, func(a, b Blast) int { return cmp.Compare(len(b.Uses), len(a.Uses)) })
	var names []string
	for _, b := range ex[:min(2, len(ex))] {
		names = append(names, shortName(b.Definition))
	}
	s := strings.Join(names, ", ")
	if len(ex) > 2 {
		s += " +" + strconv.Itoa(len(ex)-2)
	}
	return s
}

// shortName is a qualified definition's name without its package path.
func shortName(q string) string {
	slash := strings.LastIndexByte(q, '/')
	rest := q[slash+1:]
	if i := strings.IndexByte(rest, '.'); i >= 0 && !strings.Contains(rest[:i], "/") {
		// Go: pkg.Name or pkg.Type.Method; a file path: file.ext.Name.
		if strings.Count(rest, ".") >= 2 && codegraph.LanguageOf(rest[:strings.LastIndexByte(rest, '.')]) != "" {
			return rest[strings.LastIndexByte(rest, '.')+1:]
		}
		return rest[i+1:]
	}
	return rest
}

func commonDir(fs []string) string {
	if len(fs) == 1 {
		return fs[0]
	}
	dir := path.Dir(fs[0])
	for _, p := range fs[1:] {
		for dir != "." && !strings.HasPrefix(p, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	if dir != "." {
		return dir
	}
	// Files of several top folders: name them.
	var tops []string
	for _, p := range fs {
		top, _, found := strings.Cut(p, "/")
		if !found {
			top = "(root)"
		}
		if !slices.Contains(tops, top) {
			tops = append(tops, top)
		}
	}
	return listSome(tops, 3)
}

func coverage(g *codegraph.Graph, files []ChangedFile) []codegraph.Coverage {
	n := map[string]int{}
	first := map[string]string{}
	for _, f := range files {
		if lang := codegraph.LanguageOf(f.Path); lang != "" && lang != "go.mod" {
			n[lang]++
			if first[lang] == "" {
				first[lang] = f.Path
			}
		}
	}
	var out []codegraph.Coverage
	for lang, k := range n {
		c := g.CoverageOf(first[lang])
		if g == nil {
			c = codegraph.Coverage{Level: "paths", Note: "no code graph built: grouped by path"}
		}
		c.Language, c.Files = lang, k
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b codegraph.Coverage) int { return cmp.Compare(a.Language, b.Language) })
	return out
}
