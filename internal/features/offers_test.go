package features

import (
	"os"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// offersExample is the spec's example (examples/), its c1 at startLine.
func offersExample(t *testing.T, startLine string) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), `"start_line": 72`, `"start_line": `+startLine, 1)
}

// offerSetup analyses src and returns a query on the range of needle.
func offerSetup(t *testing.T, src, needle string, last bool) (*anchor.Analysis, OfferQuery) {
	t.Helper()
	i := strings.Index(src, needle)
	if last {
		i = strings.LastIndex(src, needle)
	}
	if i < 0 {
		t.Fatalf("%q not in the review", needle)
	}
	return analyze(exchange.Parse([]byte(src))), OfferQuery{Start: i, End: i + len(needle), Opts: ActionOptions{Author: "ana", Now: fixedNow}}
}

// allFamilies is q asking for every family, as the light bulb does.
func allFamilies(q OfferQuery) OfferQuery {
	q.Fixes, q.Rewrites, q.FixAll, q.Bulb = true, true, true, true
	return q
}

func offerTitles(offers []Offer) string {
	var b strings.Builder
	for _, o := range offers {
		b.WriteString("\n  " + o.Title)
	}
	return b.String()
}

func findOffer(t *testing.T, offers []Offer, prefix string) Offer {
	t.Helper()
	for _, o := range offers {
		if strings.HasPrefix(o.Title, prefix) {
			return o
		}
	}
	t.Fatalf("no offer %q in%s", prefix, offerTitles(offers))
	return Offer{}
}

func hasFixAll(offers []Offer) bool {
	for _, o := range offers {
		if o.Kind == OfferFixAll {
			return true
		}
	}
	return false
}

// TestOffersPreferredFixFirst: under the cursor in a drifted snippet the
// fixes of its diagnostic are offered, the preferred re-anchoring first,
// each with the diagnostic it settles.
func TestOffersPreferredFixFirst(t *testing.T) {
	an, q := offerSetup(t, offersExample(t, "71"), `"result, err := calculate(input)"`, true)
	q.Fixes = true
	got := Offers(an, q)
	if len(got) == 0 || !got[0].Preferred || !strings.HasPrefix(got[0].Title, "Re-anchor c1 to RIGHT 72") {
		t.Fatalf("got%s\nwant the preferred re-anchoring first", offerTitles(got))
	}
	for i, o := range got {
		if o.Kind != OfferFix || len(o.Resolves) == 0 {
			t.Errorf("%q: kind %v resolving %d diagnostics, want a fix of one", o.Title, o.Kind, len(o.Resolves))
		}
		if o.Preferred && i > 0 && strings.HasPrefix(o.Title, "Re-anchor") {
			t.Errorf("%q preferred too", o.Title)
		}
	}
	findOffer(t, got, "Update c1's snippet from the patch")
	findOffer(t, got, "Dismiss c1")
	if n := findOffer(t, got, "Re-anchor c1 to RIGHT 72"); n.Resolves[0].Code != exchange.CodeSnippetMismatch {
		t.Errorf("re-anchor resolves %v, want snippet-mismatch", n.Resolves)
	}
}

// TestOffersNamedDiagnostics: the diagnostics the request names pick the
// fixes, wherever the cursor is; naming none, only those under it.
func TestOffersNamedDiagnostics(t *testing.T) {
	an, q := offerSetup(t, offersExample(t, "71"), `"title"`, false)
	q.Fixes = true
	if got := Offers(an, q); len(got) != 0 {
		t.Errorf("on the title: got%s\nwant no fix", offerTitles(got))
	}
	q.Named = func(d exchange.Diagnostic) bool { return d.Code == exchange.CodeSnippetMismatch }
	findOffer(t, Offers(an, q), "Re-anchor c1 to RIGHT 72")
}

// TestOffersOneChangeOnce: wherever the cursor is, no two offers make
// the same change, and one fix of two diagnostics lists both.
func TestOffersOneChangeOnce(t *testing.T) {
	stale := strings.Replace(offersExample(t, "71"), `"state": "active"`, `"state": "stale"`, 1)
	for _, src := range []string{offersExample(t, "72"), offersExample(t, "71"), stale} {
		an := analyze(exchange.Parse([]byte(src)))
		for off := 0; off < len(src); off += 37 {
			seen := map[string]string{}
			got := Offers(an, allFamilies(OfferQuery{Start: off, End: off, Opts: ActionOptions{Now: fixedNow}}))
			for _, o := range got {
				if prev, dup := seen[editsKey(o.Edits)]; dup {
					t.Fatalf("at %d: %q and %q make the same change:%s", off, prev, o.Title, offerTitles(got))
				}
				seen[editsKey(o.Edits)] = o.Title
			}
		}
	}
	an, q := offerSetup(t, stale, `"author": "assistant"`, false)
	o := findOffer(t, Offers(an, allFamilies(q)), "Re-anchor c1 by content")
	if o.Kind != OfferFix || len(o.Resolves) != 2 || o.Resolves[0].Code != exchange.CodeStaleAnchor || o.Resolves[1].Code != exchange.CodeSnippetMismatch {
		t.Errorf("re-anchor: got kind %v resolving %v, want a fix of stale-anchor and snippet-mismatch", o.Kind, o.Resolves)
	}
}

// TestOffersRewritesOnly: asked for rewrites only, an editing action
// that would settle a diagnostic is still offered, as a rewrite; asked
// for fixes only, no plain rewrite is.
func TestOffersRewritesOnly(t *testing.T) {
	orphaned := strings.Replace(offersExample(t, "72"), `"state": "active"`, `"state": "orphaned"`, 1)
	an, q := offerSetup(t, orphaned, `"author": "assistant"`, false)
	rw := q
	rw.Rewrites = true
	got := Offers(an, rw)
	if o := findOffer(t, got, "Reactivate c1"); o.Kind != OfferRewrite || o.Resolves != nil {
		t.Errorf("rewrites only: reactivate is kind %v resolving %v, want a rewrite", o.Kind, o.Resolves)
	}
	fx := q
	fx.Fixes = true
	got = Offers(an, fx)
	if o := findOffer(t, got, "Reactivate c1"); o.Kind != OfferFix || len(o.Resolves) != 1 || o.Resolves[0].Code != exchange.CodeOrphanedResolves {
		t.Errorf("fixes: reactivate is kind %v resolving %v, want a fix of orphaned-resolves", o.Kind, o.Resolves)
	}
	for _, o := range got {
		if o.Kind != OfferFix {
			t.Errorf("fixes only: %q is kind %v", o.Title, o.Kind)
		}
	}
	fx.Disabled = []string{exchange.CodeOrphanedResolves}
	for _, o := range Offers(an, fx) {
		if strings.HasPrefix(o.Title, "Reactivate") {
			t.Errorf("orphaned-resolves silenced: %q still offered as a fix", o.Title)
		}
	}
}

// TestOffersFixAll: asked for by family fix-all is offered anywhere, and
// alone; in the light bulb only beside a diagnostic it fixes; never on a
// document with syntax errors; silenced codes are left alone.
func TestOffersFixAll(t *testing.T) {
	src := strings.Replace(offersExample(t, "71"), `"summary"`, `"x-extra": 1, "summary"`, 1)
	an, q := offerSetup(t, src, `"title"`, false)
	q.FixAll = true
	got := Offers(an, q)
	if len(got) != 1 || got[0].Kind != OfferFixAll || got[0].Title != "Apply all 2 safe lreview fixes" {
		t.Fatalf("fix-all asked for: got%s\nwant \"Apply all 2 safe lreview fixes\" alone", offerTitles(got))
	}
	fixed := applyChecked(t, src, got[0].Edits...)
	for _, want := range []string{`"@@ -70,4 +70,5 @@`, `"start_line": 72,`, `"x-extra": 1`} {
		if !strings.Contains(fixed, want) {
			t.Errorf("after fix-all: want %s in\n%s", want, fixed)
		}
	}
	for _, tc := range []struct {
		needle string
		last   bool
		want   bool
	}{
		{`"@@ -70,5`, false, true},
		{`"result, err := calculate(input)"`, true, true},
		{`"x-extra"`, false, false}, // its fix is not safe: fix-all leaves it
		{`"title"`, false, false},
	} {
		an, q := offerSetup(t, src, tc.needle, tc.last)
		if got := Offers(an, allFamilies(q)); hasFixAll(got) != tc.want {
			t.Errorf("light bulb on %s: got%s\nwant fix-all offered: %v", tc.needle, offerTitles(got), tc.want)
		}
	}

	q.Disabled = []string{exchange.CodeHunkCountMismatch}
	got = Offers(an, q)
	if len(got) != 1 {
		t.Fatalf("hunk-count-mismatch silenced: got%s\nwant one fix-all", offerTitles(got))
	}
	if fixed := applyChecked(t, src, got[0].Edits...); !strings.Contains(fixed, `"@@ -70,5 +70,6 @@`) || !strings.Contains(fixed, `"start_line": 72,`) {
		t.Errorf("got\n%s\nwant the drift fixed and the silenced header count left alone", fixed)
	}

	broken := src[:strings.LastIndex(src, "}")]
	an, q = offerSetup(t, broken, `"title"`, false)
	q.FixAll = true
	if got := Offers(an, q); len(got) != 0 {
		t.Errorf("syntax error: got%s\nwant no fix-all", offerTitles(got))
	}
}

// TestOffersAppliedSuggestion: once the working tree holds c1's
// suggestion, dismissing c1 is the preferred fix of suggestion-applied,
// and the plain dismissal of the same edit gives way to it.
func TestOffersAppliedSuggestion(t *testing.T) {
	an, tree := appliedTree(t, 0, func(s string) string { return strings.Replace(s, c1Lines, c1Applied, 1) })
	off := at(t, `"Return the error`, 0)
	q := allFamilies(OfferQuery{Start: off, End: off, Tree: tree, Opts: ActionOptions{Author: "ana", Now: fixedNow}})
	got := Offers(an, q)
	o := findOffer(t, got, "Dismiss c1: its suggestion is applied")
	if o.Kind != OfferFix || !o.Preferred || len(o.Resolves) != 1 || o.Resolves[0].Code != CodeSuggestionApplied {
		t.Errorf("got kind %v preferred %v resolving %v, want the preferred fix of suggestion-applied", o.Kind, o.Preferred, o.Resolves)
	}
	findOffer(t, got, "Reply “Applied.” to c1")
	for _, x := range got {
		if x.Kind == OfferRewrite && editsKey(x.Edits) == editsKey(o.Edits) {
			t.Errorf("%q makes the fix's change too", x.Title)
		}
	}
	q.Disabled = []string{CodeSuggestionApplied}
	for _, x := range Offers(an, q) {
		if strings.Contains(x.Title, "suggestion is applied") {
			t.Errorf("suggestion-applied silenced: %q still offered", x.Title)
		}
	}
	q.Disabled, q.Tree = nil, nil
	for _, x := range Offers(an, q) {
		if strings.Contains(x.Title, "suggestion is applied") {
			t.Errorf("no working tree: %q still offered", x.Title)
		}
	}
}

// TestOffersPreferredAcrossComments: over a range holding two drifted
// comments, every preferred fix comes before the others, though the
// document lists c1's other fixes before c2's re-anchoring.
func TestOffersPreferredAcrossComments(t *testing.T) {
	src := offersExample(t, "71")
	c2 := `{"id": "c2", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, "body": "Again.", "snippet": "result, err := calculate(input)"}`
	src = strings.Replace(src, "\n  ]\n}", ",\n    "+c2+"\n  ]\n}", 1)
	an := analyze(exchange.Parse([]byte(src)))
	got := Offers(an, OfferQuery{Start: strings.Index(src, `"comments"`), End: len(src), Fixes: true})
	findOffer(t, got, "Re-anchor c2 to RIGHT 72")
	findOffer(t, got, "Update c1's snippet")
	for i := 1; i < len(got); i++ {
		if got[i].Preferred && !got[i-1].Preferred {
			t.Fatalf("%q (preferred) after %q:%s", got[i].Title, got[i-1].Title, offerTitles(got))
		}
	}
}
