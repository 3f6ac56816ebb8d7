package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/diagram"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// lreview_set_cohort_summary and lreview_add_diagram: a cohort's Markdown
// summary and its typed diagrams, kept in the review under the cohort's
// key (internal/diagram, notes.go). Each diagram's edges are checked
// against the working tree's code graph as it is written and reported.

// CohortRef names one cohort of a review.
type CohortRef struct {
	ReviewFile
	Cohort string `json:"cohort" jsonschema:"the cohort's key, as the cohorts list gives it"`
}

// SetCohortSummaryInput is lreview_set_cohort_summary's input.
type SetCohortSummaryInput struct {
	CohortRef
	Summary string `json:"summary" jsonschema:"the cohort's summary, in Markdown; it replaces the one before"`
}

// CohortNoteOutput is what both tools return: the cohort's note now.
type CohortNoteOutput struct {
	File     string        `json:"file"`
	Cohort   string        `json:"cohort"`
	Summary  string        `json:"summary,omitempty"`
	Diagrams int           `json:"diagrams" jsonschema:"how many diagrams the cohort has now"`
	Edges    []CheckedEdge `json:"edges,omitempty" jsonschema:"lreview_add_diagram: each edge of the diagram added, verified against the code graph or not, with the reason"`
	Mermaid  string        `json:"mermaid,omitempty" jsonschema:"lreview_add_diagram: the diagram as exports draw it, unverified edges dashed and labelled"`
}

// CheckedEdge is one edge of a diagram, checked.
type CheckedEdge = diagram.Checked

// AddDiagramInput is lreview_add_diagram's input.
type AddDiagramInput struct {
	CohortRef
	Diagram diagram.Diagram `json:"diagram" jsonschema:"a typed diagram: kind sequence (participants, messages), entity_relation (entities, relations) or state_machine (states, transitions, initial); a node's code names the definition it stands for"`
}

func (s *server) setCohortSummary(ctx context.Context, _ *mcp.CallToolRequest, in SetCohortSummaryInput) (*mcp.CallToolResult, CohortNoteOutput, error) {
	if strings.TrimSpace(in.Summary) == "" || len(in.Summary) > diagram.MaxSummary {
		return nil, CohortNoteOutput{}, argError("summary", "expected the cohort's summary in Markdown, 1 byte to %d KB", diagram.MaxSummary>>10)
	}
	out, err := s.editNote(ctx, in.CohortRef, func(n *diagram.Note) { n.Summary = in.Summary })
	if err != nil {
		return nil, CohortNoteOutput{}, err
	}
	return textResult(fmt.Sprintf("summary of cohort %s written in %s", in.Cohort, out.File)), out, nil
}

func (s *server) addDiagram(ctx context.Context, _ *mcp.CallToolRequest, in AddDiagramInput) (*mcp.CallToolResult, CohortNoteOutput, error) {
	d := in.Diagram
	if err := d.Validate(); err != nil {
		return nil, CohortNoteOutput{}, argError("diagram", "diagram.%v", err)
	}
	out, err := s.editNote(ctx, in.CohortRef, func(n *diagram.Note) { n.Diagrams = append(n.Diagrams, d) })
	if err != nil {
		return nil, CohortNoteOutput{}, err
	}
	out.Edges = d.Check(s.diagramGraph(ctx, in.File))
	out.Mermaid = d.Mermaid(out.Edges)
	verified := 0
	for _, e := range out.Edges {
		if e.Verified {
			verified++
		}
	}
	return textResult(fmt.Sprintf("diagram added to cohort %s in %s: %d of %d edges verified\n%s", in.Cohort, out.File, verified, len(out.Edges), out.Mermaid)), out, nil
}

// diagramGraph is the code graph of the working tree the review file is
// in, nil (every edge unverified, saying so) when there is none.
func (s *server) diagramGraph(ctx context.Context, file string) diagram.Graph {
	r, err := s.readCached("file", file, true)
	if err != nil {
		return nil
	}
	t, err := s.tree(r.path)
	if err != nil {
		return nil
	}
	return diagram.CodeGraph{G: s.graphs.build(ctx, t)}
}

// editNote changes the cohort's note with edit and writes the member.
func (s *server) editNote(ctx context.Context, ref CohortRef, edit func(*diagram.Note)) (CohortNoteOutput, error) {
	if strings.TrimSpace(ref.Cohort) == "" || len(ref.Cohort) > diagram.MaxKey {
		return CohortNoteOutput{}, argError("cohort", "expected the cohort's key (1 to %d bytes), as the cohorts list gives it", diagram.MaxKey)
	}
	r, release, err := s.openReview(ctx, ref.File, true)
	if err != nil {
		return CohortNoteOutput{}, err
	}
	defer release()
	root := r.doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return CohortNoteOutput{}, argError("file", "%s is not a review object: fix it first (lreview_check)", r.name)
	}
	notes, _, err := diagram.ReadNotes(r.doc)
	if err != nil {
		return CohortNoteOutput{}, argError("file", "%s: %v; fix or remove the member first", r.name, err)
	}
	n := notes[ref.Cohort]
	edit(&n)
	notes[ref.Cohort] = n
	indent := "  "
	if ms := root.Members(); len(ms) > 0 {
		indent = exchange.LineIndent(r.doc.Text, ms[0].KeyStart())
	}
	if _, err := s.apply(r, []exchange.Edit{exchange.SetMember(r.doc.Text, root, diagram.Member, diagram.NotesJSON(notes, indent), "")}); err != nil {
		return CohortNoteOutput{}, err
	}
	return CohortNoteOutput{File: r.name, Cohort: ref.Cohort, Summary: n.Summary, Diagrams: len(n.Diagrams)}, nil
}
