package forge

import "testing"

// TestCohortsSectionDroppedOnImport: the cohorts section an export adds
// after the summary (and the verdict) is not read back into the summary.
func TestCohortsSectionDroppedOnImport(t *testing.T) {
	section := CohortsSection([]string{"**store** (high): 3 uses outside", "**docs** (low): 1 line changed in 1 file"})
	if want := "**Review order** — cohorts, riskiest first:\n\n1. **store** (high): 3 uses outside\n2. **docs** (low): 1 line changed in 1 file"; section != want {
		t.Fatalf("section = %q, want %q", section, want)
	}
	for _, verdict := range []string{"", VerdictSection("Hold", "contract: warn", nil, nil)} {
		body := reviewBody("Title", paragraphs("The summary.", verdict, section), true)
		title, summary := splitReviewBody(body)
		if title != "Title" || summary != "The summary." {
			t.Errorf("verdict %q: split gives %q, %q; want the title and summary alone", verdict, title, summary)
		}
	}
	if CohortsSection(nil) != "" {
		t.Errorf("no cohorts: want no section")
	}
}

// TestCohortNotesDroppedOnImport: a cohort's summary and mermaid diagram,
// indented under its item, go with the section on import.
func TestCohortNotesDroppedOnImport(t *testing.T) {
	item := "**store** (high): 3 uses outside\n\n    Raises the cap.\n\n    **Verdict: Ship** is not a head here.\n\n    ```mermaid\n    sequenceDiagram\n        a-->>b: x (unverified: a does not call or refer to b in the code graph)\n    ```\n    - unverified: a → b: a does not call or refer to b in the code graph"
	for _, verdict := range []string{"", VerdictSection("Hold", "contract: warn", nil, nil)} {
		body := reviewBody("Title", paragraphs("The summary.", verdict, CohortsSection([]string{item, "**docs** (low): 1 line"})), true)
		if title, summary := splitReviewBody(body); title != "Title" || summary != "The summary." {
			t.Errorf("verdict %q: split gives %q, %q; want the title and summary alone", verdict, title, summary)
		}
	}
}
