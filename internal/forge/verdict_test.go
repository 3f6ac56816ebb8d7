package forge

import "testing"

// TestVerdictSectionRoundTrip: the verdict section an export writes after
// the summary is not read back into the summary.
func TestVerdictSectionRoundTrip(t *testing.T) {
	section := VerdictSection("Block", "contract: fail (1 breaking, undecided)", []string{"DELETE /orders/{id}: API removed without deprecation"},
		[]string{"GET /orders: the `query` request parameter `limit` became required — approved by hduran in c2"})
	want := "**Verdict: Block** — contract: fail (1 breaking, undecided)\n\nBreaking changes without a decision:\n\n- DELETE /orders/{id}: API removed without deprecation" +
		"\n\nBreaking changes decided:\n\n- GET /orders: the `query` request parameter `limit` became required — approved by hduran in c2"
	if section != want {
		t.Errorf("got %q, want %q", section, want)
	}
	for _, tc := range []struct{ title, summary string }{{"Orders", "Looks fine.\n\nOne more paragraph."}, {"", "Only a summary."}, {"Title only", ""}} {
		body := reviewBody(tc.title, paragraphs(tc.summary, section), true)
		title, summary := splitReviewBody(body)
		if title != tc.title || summary != tc.summary {
			t.Errorf("%q: got %q, %q, want %q, %q", body, title, summary, tc.title, tc.summary)
		}
	}
}
