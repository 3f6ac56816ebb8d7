// Package reviewgen generates large, realistic review exchange documents
// for benchmarks and stress tests across the project (exchange, anchor,
// lsp): a git-style patch of Go-like code with valid hunk headers, and
// comments anchored to it, some of them drifted the way LLM-written
// reviews drift (start_line off by a few lines, snippet still right).
//
// Output is deterministic for a Config, and laid out as leanreview writes
// it (two-space indentation, one diff line per patch element), so that
// timings measure the common case.
package reviewgen

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Config says what to generate. Zero fields take the defaults of Default.
type Config struct {
	// Files is the number of file diffs.
	Files int
	// DiffLines is the number of patch lines, headers included.
	DiffLines int
	// Comments is the number of comments.
	Comments int
	// DriftedFraction is the share of comments whose start_line (and
	// end_line) is off by 1 to 5 lines while their snippet is right. Zero
	// takes the default; a negative value means no drift at all.
	DriftedFraction float64
	// Seed makes the document; the same Config gives the same bytes.
	Seed int64
}

// Default is the review the project's benchmarks and quoted figures read:
// a large patch over many files, with comments of which a third drifted,
// so that every stage of the analysis has real work.
func Default() Config {
	return Config{Files: 200, DiffLines: 100_000, Comments: 2_000, DriftedFraction: 1.0 / 3, Seed: 1}
}

func (c Config) withDefaults() Config {
	d := Default()
	if c.Files <= 0 {
		c.Files = d.Files
	}
	if c.DiffLines <= 0 {
		c.DiffLines = d.DiffLines
	}
	if c.Comments < 0 {
		c.Comments = 0
	} else if c.Comments == 0 {
		c.Comments = d.Comments
	}
	if c.DriftedFraction == 0 {
		c.DriftedFraction = d.DriftedFraction
	} else if c.DriftedFraction < 0 {
		c.DriftedFraction = 0
	}
	if c.Seed == 0 {
		c.Seed = d.Seed
	}
	return c
}

type line struct {
	kind     byte // ' ', '+' or '-'
	old, new int
	text     string // without the marker
}

type hunk struct{ lines []line }

type file struct {
	oldPath, newPath string
	isNew            bool
	hunks            []hunk
}

type gen struct {
	r   *rand.Rand
	cfg Config
}

// Generate returns a review exchange document for cfg.
func Generate(cfg Config) []byte {
	cfg = cfg.withDefaults()
	g := &gen{r: rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(cfg.Seed)^0x9e3779b97f4a7c15)), cfg: cfg}
	files := g.files()

	var b strings.Builder
	b.Grow(cfg.DiffLines*80 + cfg.Comments*500)
	b.WriteString("{\n  \"leanreview_review\": 1,\n")
	b.WriteString("  \"title\": " + jsontext.Quote("generated review: "+strconv.Itoa(cfg.Files)+" files, "+strconv.Itoa(cfg.Comments)+" comments") + ",\n")
	b.WriteString("  \"summary\": " + jsontext.Quote("Synthetic review for benchmarks — reproducible with seed "+strconv.FormatInt(cfg.Seed, 10)+".") + ",\n")
	b.WriteString("  \"patch\": [")
	first := true
	emit := func(s string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString("\n    ")
		b.WriteString(jsontext.Quote(s))
	}
	for _, f := range files {
		g.writeFile(f, emit)
	}
	b.WriteString("\n  ],\n  \"comments\": [")
	g.writeComments(&b, files)
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// files lays out the patch: each file gets its share of DiffLines, split
// into hunks separated by unchanged stretches.
func (g *gen) files() []*file {
	n := g.cfg.Files
	budget := g.cfg.DiffLines
	out := make([]*file, 0, n)
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		share := budget / (n - i)
		budget -= share
		p := g.path()
		for seen[p] {
			p = strings.TrimSuffix(p, ".go") + "_" + strconv.Itoa(i) + ".go"
		}
		seen[p] = true
		f := &file{oldPath: p, newPath: p}
		headers := 4
		switch {
		case i%50 == 49:
			f.isNew = true
		case i%70 == 69:
			f.newPath = strings.TrimSuffix(p, ".go") + "_v2.go"
			seen[f.newPath] = true
			headers = 7
		}
		body := share - headers
		if f.isNew {
			body--
			f.hunks = append(f.hunks, g.newFileHunk(max(1, body-1)))
		} else {
			old, nw := 1, 1
			for body > 3 {
				size := min(body-1, 12+g.r.IntN(50))
				gap := 3 + g.r.IntN(120)
				old += gap
				nw += gap
				h := g.hunk(size, old, nw)
				for _, l := range h.lines {
					if l.old > 0 {
						old = l.old + 1
					}
					if l.new > 0 {
						nw = l.new + 1
					}
				}
				f.hunks = append(f.hunks, h)
				body -= size + 1
			}
		}
		out = append(out, f)
	}
	return out
}

func (g *gen) newFileHunk(size int) hunk {
	h := hunk{}
	for i := 1; i <= size; i++ {
		h.lines = append(h.lines, line{kind: '+', new: i, text: g.code()})
	}
	return h
}

// hunk makes size body lines starting at old and new line numbers: context
// around runs of removed and added lines, as diff -U3 lays them out.
func (g *gen) hunk(size, old, nw int) hunk {
	h := hunk{}
	for len(h.lines) < size {
		left := size - len(h.lines)
		switch {
		case left <= 3 || g.r.IntN(10) < 5:
			h.lines = append(h.lines, line{kind: ' ', old: old, new: nw, text: g.code()})
			old++
			nw++
		case g.r.IntN(3) == 0:
			h.lines = append(h.lines, line{kind: '-', old: old, text: g.code()})
			old++
		default:
			h.lines = append(h.lines, line{kind: '+', new: nw, text: g.code()})
			nw++
		}
	}
	return h
}

func (g *gen) writeFile(f *file, emit func(string)) {
	emit("diff --git a/" + f.oldPath + " b/" + f.newPath)
	switch {
	case f.isNew:
		emit("new file mode 100644")
		emit("index 0000000.." + g.hex(7))
		emit("--- /dev/null")
	case f.oldPath != f.newPath:
		emit("similarity index " + strconv.Itoa(80+g.r.IntN(20)) + "%")
		emit("rename from " + f.oldPath)
		emit("rename to " + f.newPath)
		emit("index " + g.hex(7) + ".." + g.hex(7) + " 100644")
		emit("--- a/" + f.oldPath)
	default:
		emit("index " + g.hex(7) + ".." + g.hex(7) + " 100644")
		emit("--- a/" + f.oldPath)
	}
	emit("+++ b/" + f.newPath)
	for _, h := range f.hunks {
		oldStart, newStart, oldCount, newCount := 0, 0, 0, 0
		for _, l := range h.lines {
			if l.old > 0 {
				if oldCount == 0 {
					oldStart = l.old
				}
				oldCount++
			}
			if l.new > 0 {
				if newCount == 0 {
					newStart = l.new
				}
				newCount++
			}
		}
		emit("@@ -" + strconv.Itoa(oldStart) + "," + strconv.Itoa(oldCount) + " +" + strconv.Itoa(newStart) + "," + strconv.Itoa(newCount) + " @@ func " + g.ident(true) + "(ctx context.Context) error {")
		for _, l := range h.lines {
			emit(string(l.kind) + l.text)
		}
	}
}

func (g *gen) writeComments(b *strings.Builder, files []*file) {
	var candidates []*file
	for _, f := range files {
		if len(f.hunks) > 0 {
			candidates = append(candidates, f)
		}
	}
	if len(candidates) == 0 {
		b.WriteString("]")
		return
	}
	drifted := int(float64(g.cfg.Comments) * g.cfg.DriftedFraction)
	for n := 0; n < g.cfg.Comments; n++ {
		a := g.place(candidates, n < drifted)
		state := "active"
		switch k := g.r.IntN(20); {
		case k == 0:
			state = "dismissed"
		case k == 1:
			state = "stale"
		}
		if n > 0 {
			b.WriteByte(',')
		}
		g.writeComment(b, n, a, state)
	}
	b.WriteString("\n  ]")
}

// placed is where a generated comment is anchored.
type placed struct {
	path, side string
	start, end int
	anchored   []string // the lines it covers, trimmed: its snippet
}

// place picks a line (or a few) of a random hunk for a comment, moved by
// a few lines when the comment is to be drifted.
func (g *gen) place(candidates []*file, drift bool) placed {
	f := candidates[g.r.IntN(len(candidates))]
	h := f.hunks[g.r.IntN(len(f.hunks))]
	li := g.r.IntN(len(h.lines))
	l := h.lines[li]
	a := placed{side: "RIGHT", path: f.newPath}
	switch {
	case l.kind == '-':
		a.side = "LEFT"
	case l.kind == ' ' && g.r.IntN(5) == 0:
		a.side = "LEFT"
	}
	num := func(l line) int {
		if a.side == "LEFT" {
			return l.old
		}
		return l.new
	}
	a.start, a.end = num(l), num(l)
	a.anchored = []string{strings.TrimSpace(l.text)}
	if g.r.IntN(5) == 0 { // a multi-line range, within the hunk
		want := 1 + g.r.IntN(3)
		for j := li + 1; j < len(h.lines) && want > 0; j++ {
			if num(h.lines[j]) > 0 {
				a.end = num(h.lines[j])
				a.anchored = append(a.anchored, strings.TrimSpace(h.lines[j].text))
				want--
			}
		}
	}
	if drift {
		d := 1 + g.r.IntN(5)
		if g.r.IntN(2) == 0 && a.start > d {
			d = -d
		}
		a.start += d
		a.end += d
	}
	if a.side == "LEFT" {
		a.path = f.oldPath
	}
	return a
}

// writeComment writes comment n, one member a line.
func (g *gen) writeComment(b *strings.Builder, n int, a placed, state string) {
	b.WriteString("\n    {\n")
	field := func(k, v string, last bool) {
		b.WriteString("      " + jsontext.Quote(k) + ": " + v)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	field("id", jsontext.Quote("c"+strconv.Itoa(n+1)), false)
	field("author", jsontext.Quote(g.pick(authors)), false)
	field("path", jsontext.Quote(a.path), false)
	field("side", jsontext.Quote(a.side), false)
	field("start_line", strconv.Itoa(a.start), false)
	if a.end != a.start {
		field("end_line", strconv.Itoa(a.end), false)
	}
	field("body", jsontext.Quote(g.body()), false)
	field("state", jsontext.Quote(state), false)
	field("snippet", jsontext.Quote(strings.Join(a.anchored, "\n")), false)
	hasReplies := g.r.IntN(5) == 0
	field("at", jsontext.Quote("2025-0"+strconv.Itoa(1+g.r.IntN(9))+"-1"+strconv.Itoa(g.r.IntN(10))+"T1"+strconv.Itoa(g.r.IntN(10))+":0"+strconv.Itoa(g.r.IntN(10))+":00Z"), !hasReplies)
	if hasReplies {
		b.WriteString("      \"replies\": [\n        { \"author\": " + jsontext.Quote(g.pick(people)) + ", \"body\": " + jsontext.Quote(g.pick(replies)) + " }\n      ]\n")
	}
	b.WriteString("    }")
}

var (
	dirs    = []string{"internal/api", "internal/auth", "internal/store", "cmd/server", "pkg/client", "internal/billing", "internal/queue", "pkg/util", "internal/cache", "internal/é18n"}
	nouns   = []string{"user", "session", "token", "order", "invoice", "cache", "request", "result", "config", "handler", "payload", "entry", "batch", "cursor", "limit", "retry"}
	verbs   = []string{"load", "store", "parse", "validate", "fetch", "compute", "render", "flush", "resolve", "decode", "encode", "apply", "merge", "close"}
	types   = []string{"string", "int", "error", "[]byte", "*Config", "map[string]int", "time.Duration", "context.Context", "*http.Request", "[]*Entry"}
	words   = []string{"résumé", "naïve", "café", "日本語", "Grüße", "→", "✓", "ünïcode", "Ωmega", "😀"}
	authors = []string{"assistant", "assistant", "assistant", "hduran", "mlefèvre"}
	people  = []string{"hduran", "mlefèvre", "jtanaka", "søren"}
	replies = []string{
		"Agreed, fixing it in the next push.",
		"Not sure: callers rely on this — can we keep it?",
		"Done ✓",
		"I'd rather log it than return it.",
		"Bonne remarque, corrigé.",
	}
	bodies = []string{
		"`%s` is assigned and discarded — return it instead.",
		"This allocates on every call; hoist `%s` out of the loop.",
		"Nil check missing: `%s` can be nil when the cache is cold.",
		"Naming: `%s` reads like a getter but it mutates state.",
		"Race: `%s` is written without holding the lock.",
		"Consider `errors.Is` here instead of comparing `%s` directly.",
		"Nit: the comment above `%s` no longer matches — « ça prête à confusion ».",
	}
)

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *gen) path() string {
	return g.pick(dirs) + "/" + g.pick(nouns) + "_" + g.pick(verbs) + ".go"
}

func (g *gen) ident(exported bool) string {
	v, n := g.pick(verbs), g.pick(nouns)
	if exported {
		return strings.ToUpper(v[:1]) + v[1:] + strings.ToUpper(n[:1]) + n[1:]
	}
	return v + strings.ToUpper(n[:1]) + n[1:]
}

func (g *gen) body() string {
	s := strings.Replace(g.pick(bodies), "%s", g.ident(false), 1)
	if g.r.IntN(4) == 0 {
		s += "\n\n```go\nif err != nil {\n\treturn fmt.Errorf(\"" + g.pick(verbs) + ": %w\", err)\n}\n```"
	}
	return s
}

// code returns one line of Go-like code with its indentation (tabs),
// sometimes with a trailing comment.
func (g *gen) code() string {
	s := g.statement()
	if s != "" && g.r.IntN(5) < 2 {
		s += " // " + g.pick(verbs) + " the " + g.pick(nouns) + " (" + g.pick(words) + ") before " + g.ident(false)
	}
	return s
}

func (g *gen) statement() string {
	ind := strings.Repeat("\t", 1+g.r.IntN(4))
	a, b, c := g.ident(false), g.ident(false), g.ident(true)
	switch g.r.IntN(16) {
	case 0:
		return ind + "if err := " + a + "(ctx, " + g.pick(nouns) + "); err != nil {"
	case 1:
		return ind + "return nil, fmt.Errorf(\"" + g.pick(verbs) + " " + g.pick(nouns) + ": %w\", err)"
	case 2:
		return ind + a + ", err := s." + c + "(ctx, req." + strings.ToUpper(g.pick(nouns)[:1]) + g.pick(nouns)[1:] + ")"
	case 3:
		return ind + "}"
	case 4:
		return ind + "for i, " + g.pick(nouns) + " := range " + b + " {"
	case 5:
		return ind + "log.Printf(\"" + g.pick(words) + ": %s (%d)\", " + a + ", len(" + b + "))"
	case 6:
		return ind + "var " + a + " " + g.pick(types) + " // " + g.pick(words) + " " + g.pick(nouns)
	case 7:
		return ""
	case 8:
		return ind + "defer " + a + ".Close()"
	case 9:
		return ind + "const " + a + " = \"" + g.pick(words) + "-" + g.hex(4) + "\""
	case 10:
		return ind + "if " + a + " == nil || len(" + b + ") > " + strconv.Itoa(g.r.IntN(1000)) + " {"
	case 11:
		return ind + "return " + a + ", nil"
	case 12:
		return ind + "// " + c + " " + g.pick(verbs) + "s the " + g.pick(nouns) + " before the " + g.pick(nouns) + " is " + g.pick(words) + "."
	case 13:
		return ind + a + "[" + strconv.Quote(g.pick(nouns)) + "] = append(" + a + "[" + strconv.Quote(g.pick(nouns)) + "], " + b + "...)"
	case 14:
		return ind + "case " + strconv.Itoa(g.r.IntN(500)) + ", " + strconv.Itoa(g.r.IntN(500)) + ":"
	}
	return ind + "s.mu.Lock(); " + a + " := s." + b + "[key]; s.mu.Unlock() // " + g.hex(6)
}
