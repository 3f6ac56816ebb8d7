package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// codeLenses puts the review's state at the top of the file: how many
// comments in each state and how many problems, the first thing a person
// wants to know when a review comes back.
func codeLenses(ctx context.Context, s *Server, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	conv, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if an.Doc.Root.Kind != exchange.KindObject {
		return []protocol.CodeLens{}, nil
	}
	disabled := s.currentSettings().Diagnostics.Disabled
	at := conv.Range(exchange.Range{Start: an.Doc.Root.Start, End: an.Doc.Root.Start + 1})
	comments := "1 comment"
	if n := len(an.Doc.Review.Comments); n != 1 {
		comments = fmt.Sprintf("%d comments", n)
	}
	if d := countsDetail(anchor.StateCounts(an.Doc)); d != "" {
		comments += ": " + d
	}
	return []protocol.CodeLens{
		{Range: at, Command: &protocol.Command{Title: comments}},
		{Range: at, Command: &protocol.Command{Title: problemsTitle(visibleDiagnostics(an.Diagnostics, disabled))}},
	}, nil
}

func problemsTitle(ds []exchange.Diagnostic) string {
	var counts [5]int
	for _, d := range ds {
		if d.Severity >= 1 && d.Severity <= 4 {
			counts[d.Severity]++
		}
	}
	var parts []string
	for _, sv := range []exchange.Severity{exchange.SeverityError, exchange.SeverityWarning, exchange.SeverityInformation} {
		if n := counts[sv]; n > 0 {
			name := map[exchange.Severity]string{exchange.SeverityError: "error", exchange.SeverityWarning: "warning", exchange.SeverityInformation: "note"}[sv]
			if n > 1 {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	if len(parts) == 0 {
		return "no problems"
	}
	return strings.Join(parts, ", ")
}
