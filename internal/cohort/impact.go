package cohort

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/codegraph"
)

// The impact score adds up what a demanding reviewer would read first
// for; each part that counts gives a reason in words. The weights are
// deliberately few and coarse: the reasons, not the number, are what a
// person reads.
const (
	highScore   = 30
	mediumScore = 12
)

// describe fills a cohort's key, blast radius, score and reasons.
func describe(c *Cohort, in Input, files []ChangedFile, idx map[string]int, changed [][]codegraph.DefID, deps []DepChange) {
	g := in.Graph
	c.principal = principal(g, c.Files)
	c.Key = KeyOf(c.principal)
	inCohort := func(p string) bool { _, ok := slices.BinarySearch(c.Files, p); return ok }
	var reasons []string
	score := 0
	var exported, untested []string
	var sensitive []string
	deleted := 0
	code := false
	for _, p := range c.Files {
		f := &files[idx[p]]
		c.ChangedLines += f.Added + f.Removed
		c.Comments += in.Comments[p]
		if f.OldPath != "" {
			c.Comments += in.Comments[f.OldPath]
		}
		if f.Status == "deleted" {
			deleted++
		}
		test := isTest(g, p)
		if test {
			c.hasTest = true
		} else if !isGenerated(g, p) && isCode(p) {
			code = true
		}
		if kindOf(p) == "docs" {
			continue // prose about a sensitive place is not one
		}
		for _, why := range sensitiveKinds(p) {
			if !slices.Contains(sensitive, why) {
				sensitive = append(sensitive, why)
			}
		}
		for _, id := range changed[idx[p]] {
			d := g.Def(id)
			b := Blast{Definition: d.QualifiedName(), Kind: d.Kind, Path: d.Path, Line: d.Line, Exported: d.Exported, id: id}
			b.Uses = g.Uses(id)
			for _, u := range b.Uses {
				if u.Possible {
					b.Possible++
				}
				if !inCohort(u.Path) {
					b.Outside++
					c.UsesOutside++
					if u.Possible {
						c.PossibleOut++
					}
				}
			}
			if b.Uses == nil {
				b.Uses = []codegraph.Use{}
			}
			c.BlastRadius = append(c.BlastRadius, b)
			if d.Exported && !test {
				exported = append(exported, shortName(b.Definition))
			}
			if !test && !d.Test {
				untested = append(untested, shortName(b.Definition))
			}
		}
	}
	if certain := c.UsesOutside - c.PossibleOut; c.UsesOutside > 0 {
		score += min(certain, 40) + min(c.PossibleOut, 20)/2
		r := plural(certain, "use") + " outside"
		if c.PossibleOut > 0 {
			r += " (+" + strconv.Itoa(c.PossibleOut) + " possible)"
		}
		if certain == 0 {
			r = plural(c.PossibleOut, "possible use") + " outside"
		}
		reasons = append(reasons, r)
	}
	if len(exported) > 0 {
		score += 4 * min(len(exported), 5)
		reasons = append(reasons, "public API changed: "+listSome(exported, 3))
	}
	for _, why := range sensitive {
		score += 15
		reasons = append(reasons, why)
	}
	var majors []string
	for _, d := range deps {
		if d.Major && inCohort(d.Manifest) {
			majors = append(majors, d.Name+" "+d.Old+" → "+d.New)
		}
	}
	if len(majors) > 0 {
		score += 15 * min(len(majors), 3)
		reasons = append(reasons, "major version change: "+listSome(majors, 2))
	}
	switch {
	case code && !c.hasTest:
		score += 8
		r := "no test change"
		if len(untested) > 0 {
			r += " (test gap: " + listSome(untested, 3) + ")"
		}
		reasons = append(reasons, r)
	case c.hasTest:
		reasons = append(reasons, "tests changed with it")
	}
	if deleted > 0 {
		score += 2 * min(deleted, 5)
		reasons = append(reasons, "removes "+plural(deleted, "file"))
	}
	score += min(c.ChangedLines/20, 15)
	reasons = append(reasons, plural(c.ChangedLines, "line")+" changed in "+plural(len(c.Files), "file"))
	if c.Comments > 0 {
		score += 2 * min(c.Comments, 5)
		reasons = append(reasons, plural(c.Comments, "active comment"))
	}
	slices.SortStableFunc(c.BlastRadius, func(a, b Blast) int { return b.Outside - a.Outside })
	c.Score = score
	c.Reasons = reasons
	switch {
	case score >= highScore:
		c.Level = "high"
	case score >= mediumScore:
		c.Level = "medium"
	default:
		c.Level = "low"
	}
	if c.BlastRadius == nil {
		c.BlastRadius = []Blast{}
	}
}

// sensitiveKinds names the sensitive places a path is in.
func sensitiveKinds(p string) []string {
	lower := strings.ToLower(p)
	base := path.Base(lower)
	var out []string
	for _, w := range []string{"auth", "security", "crypto", "permission", "password", "secret", "token", "session", "oauth", "acl", "rbac"} {
		if strings.Contains(lower, w) {
			out = append(out, "security-sensitive ("+w+")")
			break
		}
	}
	if strings.Contains(lower, "migration") || strings.Contains(lower, "/migrate/") || strings.HasSuffix(base, ".sql") && strings.Contains(lower, "schema") {
		out = append(out, "database migration")
	}
	if strings.HasPrefix(lower, ".github/workflows/") || base == ".gitlab-ci.yml" || base == "jenkinsfile" || strings.HasPrefix(lower, ".circleci/") || strings.HasPrefix(lower, ".gitea/workflows/") || base == "azure-pipelines.yml" {
		out = append(out, "CI workflow")
	}
	if isManifest(p) || isLock(p) {
		out = append(out, "dependency manifest")
	}
	if strings.Contains(base, "openapi") || strings.Contains(base, "swagger") || strings.HasSuffix(base, ".proto") || strings.HasSuffix(base, ".graphql") || strings.HasSuffix(base, ".graphqls") {
		out = append(out, "API description")
	}
	return out
}

func isCode(p string) bool {
	switch codegraph.LanguageOf(p) {
	case "", "go.mod", "SQL", "Protocol Buffers":
		return false
	}
	return true
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func listSome(xs []string, n int) string {
	xs = slices.Compact(slices.Clone(xs))
	s := strings.Join(xs[:min(n, len(xs))], ", ")
	if len(xs) > n {
		s += " +" + strconv.Itoa(len(xs)-n)
	}
	return s
}
