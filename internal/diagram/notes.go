package diagram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The cohorts' summaries and diagrams are kept in the review file under
// the extension member Member, by cohort key (an opaque string the
// cohorts give; review-exchange.md tolerates unknown members, leanreview's
// own rewrite drops them). A rebase changes the patch and the comments,
// never this member, so they survive it.
//
//	"lreview_cohort_notes": {
//	  "<cohort key>": {"summary": "…", "diagrams": [{"kind": "sequence", …}]}
//	}

// Member is the notes' member in the review's top-level object.
const Member = "lreview_cohort_notes"

// Note is one cohort's summary and diagrams.
type Note struct {
	Summary  string    `json:"summary,omitempty"`
	Diagrams []Diagram `json:"diagrams,omitempty"`
}

// maxNotes bounds the member read, and maxKey a cohort key.
const (
	maxNotes   = 4 << 20
	MaxKey     = 200
	MaxSummary = 64 << 10
)

// ReadNotes returns the review's notes by cohort key (empty when none)
// and the member's node; an error says why the member is not notes.
func ReadNotes(doc *exchange.Document) (map[string]Note, *exchange.Node, error) {
	notes := map[string]Note{}
	root := doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return notes, nil, nil
	}
	n := root.Member(Member)
	if n == nil {
		return notes, nil, nil
	}
	if n.Kind != exchange.KindObject || n.End-n.Start > maxNotes {
		return nil, n, fmt.Errorf("%s is not an object of at most %d MB", Member, maxNotes>>20)
	}
	if err := json.Unmarshal(doc.Text.Slice(n.Start, n.End), &notes); err != nil {
		return nil, n, fmt.Errorf("%s is not cohort notes: %v", Member, err)
	}
	return notes, n, nil
}

// NotesJSON is notes as the member's value, indented to sit at indent,
// keys in order.
func NotesJSON(notes map[string]Note, indent string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, "  ")
	if err := enc.Encode(notes); err != nil {
		panic(err) // strings and slices of strings always encode
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// Markdown is the note as a hover and an export show it: the summary, then
// each diagram checked against g (nil: no code graph) in a mermaid block,
// unverified edges dashed and labelled, and listed after the block with
// their reasons for a reader whose Markdown draws no Mermaid.
func (n Note) Markdown(g Graph) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(n.Summary))
	for i := range n.Diagrams {
		d := &n.Diagrams[i]
		checked := d.Check(g)
		verified := 0
		for _, c := range checked {
			if c.Verified {
				verified++
			}
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if d.Title != "" {
			b.WriteString("**" + text(d.Title) + "** · ")
		}
		fmt.Fprintf(&b, "%s diagram, %d of %d edges verified against the code\n\n```mermaid\n%s```", strings.ReplaceAll(d.Kind, "_", "-"), verified, len(checked), d.Mermaid(checked))
		for _, c := range checked {
			if !c.Verified {
				fmt.Fprintf(&b, "\n- unverified: %s → %s: %s", c.From, c.To, text(c.Reason))
			}
		}
	}
	return b.String()
}
