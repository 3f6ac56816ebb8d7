package anchor

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// mutation is one LLM mistake made to a comment whose anchor held.
type mutation struct {
	comment    int
	side       Side
	start, end int
	kind       string
}

// TestPreferredFixRestoresTheAnchor is the property the one ranking
// promises: take a generated review whose anchors hold, drift comments by
// a few lines or swap the side of comments on added and removed lines (the
// LLM's slips), and the preferred fix of each mutated comment puts it back
// where it was — whenever its snippet is at one place of the file only
// (with a duplicate, a nearer copy may rightly win). Seeded, so that a
// failure replays.
func TestPreferredFixRestoresTheAnchor(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run("seed"+strconv.FormatInt(seed, 10), func(t *testing.T) {
			src := reviewgen.Generate(reviewgen.Config{Files: 8, DiffLines: 4000, Comments: 400, DriftedFraction: -1, Seed: seed})
			doc, a := analyze(t, src, Options{})
			rng := rand.New(rand.NewPCG(uint64(seed), 42))
			muts, edits := mutate(t, doc, a, rng)
			if len(muts) < 100 {
				t.Fatalf("only %d comments mutated: the property is tested on too little", len(muts))
			}
			mutated, err := exchange.ApplyEdits(src, edits)
			if err != nil {
				t.Fatal(err)
			}
			_, ma := analyze(t, mutated, Options{})
			// Every mutated comment's preferred fix, all at once: they
			// edit different comments.
			kinds := map[string]int{}
			var fixes []exchange.Edit
			var fixed []mutation
			for _, m := range muts {
				c := doc.Review.Comments[m.comment]
				if len(ma.byComment[m.comment]) == 0 {
					// The mutated anchor still holds its snippet (a range
					// moved by a line still holds a snippet quoting part of
					// it): nothing to fix.
					kinds["still holds"]++
					continue
				}
				fix := preferredFix(ma.byComment[m.comment])
				if fix == nil {
					t.Errorf("%s (%s: %s %d–%d → %s %d–%d, snippet %q): no preferred fix; diagnostics %v",
						c.ID, m.kind, a.Resolutions[m.comment].Side, c.StartLine, c.EndLine, m.side, m.start, m.end, c.Snippet, ma.byComment[m.comment])
					continue
				}
				fixes = append(fixes, fix.Edits...)
				fixed = append(fixed, m)
				kinds[m.kind]++
			}
			out, err := exchange.ApplyEdits(mutated, fixes)
			if err != nil {
				t.Fatal(err)
			}
			after := exchange.Parse(out)
			for _, m := range fixed {
				c, got := doc.Review.Comments[m.comment], after.Review.Comments[m.comment]
				want := a.Resolutions[m.comment].Side.String()
				if got.SideNorm() != want || got.StartLine != c.StartLine || got.EndLine != c.EndLine {
					t.Errorf("%s (%s to %s %d): the preferred fix gives %s %d–%d, want %s %d–%d",
						c.ID, m.kind, m.side, m.start, got.SideNorm(), got.StartLine, got.EndLine, want, c.StartLine, c.EndLine)
				}
			}
			if kinds["drift"] < 50 || kinds["side swap"] < 20 {
				t.Errorf("mutations by kind %v: want at least 50 drifts and 20 side swaps", kinds)
			}
		})
	}
}

// mutate drifts or side-swaps the active comments of doc whose anchor
// holds and whose snippet's first line is at one place of its file.
func mutate(t *testing.T, doc *exchange.Document, a *Anchoring, rng *rand.Rand) ([]mutation, []exchange.Edit) {
	t.Helper()
	once := map[*FileDiff]map[string]int{}
	var muts []mutation
	var edits []exchange.Edit
	for i, c := range doc.Review.Comments {
		r := a.Resolutions[i]
		vs := snippetVariants(c.Snippet, r.Side)
		if !r.Resolved || !isActive(c) || len(vs) == 0 || weakSnippet(vs[0]) || len(a.byComment[i]) > 0 {
			continue
		}
		if once[r.File] == nil {
			once[r.File] = lineCounts(&doc.Review.Patch, r.File)
		}
		if once[r.File][vs[0][0]] != 1 {
			continue
		}
		m := mutation{comment: i, side: r.Side, start: c.StartLine, end: c.EndLine, kind: "drift"}
		first := r.File.Hunks[r.Hunk].Lines[r.First]
		if first.Kind() != Context && c.EndLine == c.StartLine && rng.IntN(2) == 0 {
			// The slip: the other side, the same number.
			m.side, m.kind = r.Side.other(), "side swap"
		} else {
			d := 1 + rng.IntN(5)
			if rng.IntN(2) == 0 && m.start > d {
				d = -d
			}
			m.start, m.end = m.start+d, m.end+d
		}
		muts = append(muts, m)
		if m.side != r.Side {
			edits = append(edits, exchange.ReplaceValue(c.Member("side"), strconv.Quote(m.side.String())))
		}
		if m.start != c.StartLine {
			edits = append(edits, exchange.ReplaceValue(c.Member("start_line"), strconv.Itoa(m.start)))
		}
		if n := c.Member("end_line"); n != nil && m.end != c.EndLine {
			edits = append(edits, exchange.ReplaceValue(n, strconv.Itoa(m.end)))
		}
	}
	return muts, edits
}

// lineCounts counts each normalised line of f's diff lines (a context line
// once: it is one line of the file).
func lineCounts(p *exchange.Patch, f *FileDiff) map[string]int {
	n := map[string]int{}
	for _, h := range f.Hunks {
		for j := range h.Lines {
			n[normLine(f.Content(p, h.PatchLine(j)))]++
		}
	}
	return n
}

func preferredFix(ds []exchange.Diagnostic) *exchange.Fix {
	for _, d := range ds {
		for i := range d.Fixes {
			if d.Fixes[i].Preferred {
				return &d.Fixes[i]
			}
		}
	}
	return nil
}

// TestSearchAgreesWithExhaustiveRanking checks the indexed, bounded search
// against the ranking applied to every place of the file: on generated
// reviews with drifted comments, the preferred candidate (or the tie) is
// the one an exhaustive scan ranks first.
func TestSearchAgreesWithExhaustiveRanking(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 6, DiffLines: 3000, Comments: 300, DriftedFraction: 0.5, Seed: 9})
	doc, a := analyze(t, src, Options{})
	checked := 0
	for i, r := range a.Resolutions {
		c := doc.Review.Comments[i]
		if r.File == nil || r.Reason == ReasonUnknownPath || len(a.byComment[i]) == 0 || c.Snippet == "" {
			continue
		}
		want := exhaustive(&doc.Review.Patch, r)
		if len(want) == 0 {
			if len(r.Candidates) > 0 {
				t.Errorf("%s: got candidates %v, the exhaustive ranking finds none", c.ID, r.Candidates)
			}
			continue
		}
		checked++
		n := tied(want, r.Side)
		best := want[0]
		switch {
		case n > 1 && r.Tie == "":
			t.Errorf("%s: exhaustive ranking ties %d places (%s), the search does not (candidates %v)", c.ID, n, tieMessage(want, n), r.Candidates)
		case n == 1 && (best.side != r.Side || best.start != c.StartLine || best.end != c.EndLine):
			if len(r.Candidates) == 0 || !r.Candidates[0].Preferred || r.Candidates[0].Side != best.side || r.Candidates[0].Start != best.start {
				t.Errorf("%s: exhaustive best is %s %d (%s), search gives %v", c.ID, best.side, best.start, best.q, r.Candidates)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d comments checked", checked)
	}
}

// exhaustive ranks every place of r's file where r's snippet matches, by
// trying each quality at each position of each side.
func exhaustive(p *exchange.Patch, r *Resolution) []place {
	c := r.Comment
	si := newSearchIndex()
	var all []place
	for _, s := range [2]Side{r.Side, r.Side.other()} {
		if !HasImage(r.File, s) {
			continue
		}
		sq := sideQuery{si: si.side(r.File, s, p), expect: c.StartLine}
		for _, v := range snippetVariants(c.Snippet, s) {
			if weakSnippet(v) {
				continue
			}
			nd := &needle{lines: v, rangeW: max(1, c.EndLine-c.StartLine+1)}
			var found []place
			for img := range sq.si.imgs {
				for p := range sq.si.size(img) {
					for _, q := range []quality{qualityExact, qualityLoose, qualityPartial} {
						if q == qualityPartial && !partialStart(sq.si.normAt(img, p), nd) {
							continue
						}
						if last, ok := matchAt(sq.si, img, p, nd, q); ok {
							found = append(found, sq.place(nd, img, p, last, q))
							break
						}
					}
				}
			}
			if len(found) > 0 {
				all = append(all, found...)
				break
			}
		}
	}
	// A context line found on the own side is not a place on the other.
	seen := map[[2]int]bool{}
	for _, p := range all {
		if p.side == r.Side {
			seen[[2]int{p.hunk, p.line}] = true
		}
	}
	out := all[:0]
	for _, p := range all {
		if p.side == r.Side || !seen[[2]int{p.hunk, p.line}] {
			out = append(out, p)
		}
	}
	rankPlaces(out, r.Side)
	return out
}

// lineKey must agree with the key of the normalised line, or an exact
// match would be missed.
func TestLineKeyAgreesWithNormLine(t *testing.T) {
	si := newSearchIndex()
	for _, s := range []string{
		"", "   ", "\t\t", "x", "\tif err != nil {", "a  b\t c", " trailing \r",
		"café  au\u00a0lait", "\u3000wide\u3000space", "日本語 // コメント", "bad \xff utf8  here", "\v\f", "x\u2028y",
	} {
		want := looseKey(si.seed, normLine(s))
		got, blank := lineKey(si.seed, s)
		if got != want || blank != (normLine(s) == "") {
			t.Errorf("lineKey(%q): got %x blank=%v, want %x blank=%v", s, got, blank, want, normLine(s) == "")
		}
	}
	// Random lines over the bytes that matter: every ASCII white space,
	// control bytes, non-ASCII spaces and letters, invalid UTF-8, at
	// every offset of the eight-byte words lineKey reads.
	parts := []string{" ", "\t", "\n", "\v", "\f", "\r", "\x00", "\x1f", "\x08", "\x0e", "!", "~", "\x7f", "a", "Z", "0",
		"\u00a0", "\u0085", "\u2028", "\u3000", "é", "日", "\xff", "\xc2", "\xe2\x80", "foo", "  ", "\t\t"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		want := looseKey(si.seed, normLine(s))
		got, blank := lineKey(si.seed, s)
		if got != want || blank != (normLine(s) == "") {
			t.Fatalf("lineKey(%q): got %x blank=%v, want %x blank=%v", s, got, blank, want, normLine(s) == "")
		}
	}
	// Keys tell lines apart: no two of these distinct texts collide.
	seen := map[uint64]string{}
	for i := range 50_000 {
		s := strconv.Itoa(i*7919) + "x"[:i%2] + strings.Repeat("\x00", i%9)
		k, _ := lineKey(si.seed, s)
		if prev, dup := seen[k]; dup {
			t.Fatalf("lineKey(%q) = lineKey(%q)", s, prev)
		}
		seen[k] = s
	}
}

// compactWord must keep the bytes that are not white space, in order, for
// every placement of white space in a word.
func TestCompactWord(t *testing.T) {
	spaces := []byte(" \t\n\v\f\r")
	for mask := range 256 {
		var w uint64
		var want []byte
		for lane := range 8 {
			c := byte('a' + lane)
			if mask>>lane&1 == 1 {
				c = spaces[(mask+lane)%len(spaces)]
			} else {
				want = append(want, c)
			}
			w |= uint64(c) << (8 * lane)
		}
		x, k := compactWord(w)
		var got []byte
		for lane := range k {
			got = append(got, byte(x>>(8*lane)))
		}
		if string(got) != string(want) || k < 8 && x>>(8*k) != 0 { // the bytes above k must be 0
			t.Fatalf("mask %08b: got %q (%x, %d), want %q", mask, got, x, k, want)
		}
	}
}

func BenchmarkLineKey(b *testing.B) {
	doc := exchange.Parse(benchDocument())
	p := &doc.Review.Patch
	lines := make([]string, p.LineCount())
	size := 0
	for i := range p.LineCount() {
		lines[i] = p.LineText(i)
		size += len(lines[i])
	}
	seed := newSearchIndex().seed
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, l := range lines {
			lineKey(seed, l)
		}
	}
}

// postings must list, for each key, exactly the lines with that key, in
// line order, for small and large sides (8- and 16-bit radix digits).
func TestPostings(t *testing.T) {
	for _, n := range []int{0, 1, 100, 40_000} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		keys := make([]uint32, n)
		want := map[uint32][]int32{}
		for i := range keys {
			keys[i] = uint32(rng.Uint64()%uint64(n/3+1)) * 0x9E3779B1 // repeats, spread over every digit
			if i%5 == 0 {
				keys[i] = 0 // blank: not listed
			} else if keys[i] != 0 {
				want[keys[i]] = append(want[keys[i]], int32(i))
			}
		}
		ps := newPostings(n, func(i int) uint32 { return keys[i] })
		for k, w := range want {
			if got := ps.of(k); !slices.Equal(got, w) {
				t.Fatalf("n=%d: of(%x) = %v, want %v", n, k, got, w)
			}
		}
		if got := ps.of(12345); n < 10 && len(got) != 0 {
			t.Errorf("n=%d: of(absent) = %v", n, got)
		}
	}
}

// An exact match far away outranks any number of white-space-insensitive
// ones nearby: quality first.
func TestExactFarBeatsLooseNear(t *testing.T) {
	patch := []string{"--- a/f.go", "+++ b/f.go", "@@ -0,0 +1,40 @@"}
	for i := 1; i <= 40; i++ {
		switch {
		case i >= 5 && i <= 15:
			patch = append(patch, "+\tf(a,b)")
		case i == 38:
			patch = append(patch, "+\tf(a, b)")
		default:
			patch = append(patch, "+\tx"+strconv.Itoa(i)+"()")
		}
	}
	_, a := analyze(t, reviewJSON(patch, cm(`"id": "c1", "path": "f.go", "side": "RIGHT", "start_line": 10, "snippet": "f(a, b)"`)), Options{})
	r := a.Resolutions[0]
	if len(r.Candidates) == 0 || !r.Candidates[0].Preferred || r.Candidates[0].Start != 38 {
		t.Errorf("got candidates %v (here %v), want RIGHT 38 preferred", r.Candidates, r.Here)
	}
}
