package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// documentSymbols outlines the review: the patch's files grouped by
// directory, busiest first, each with its hunks; then the comments.
func documentSymbols(ctx context.Context, s *Server, p *protocol.DocumentSymbolParams) ([]protocol.DocumentSymbol, error) {
	conv, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	lines := an.Index.Patch.Lines
	span := func(start, end int) protocol.Range { return conv.Range(exchange.Range{Start: start, End: end}) }
	out := []protocol.DocumentSymbol{}
	for _, d := range features.Outline(an.Anchors, an.Doc) {
		dir := protocol.DocumentSymbol{Name: d.Dir + "/", Kind: protocol.SymbolKindNamespace,
			Detail: changedActive(d.Changed, d.Active)}
		lo, hi := -1, -1
		for _, fs := range d.Files {
			f := fs.File
			first, last := lines[f.First], lines[f.Last]
			fsym := protocol.DocumentSymbol{
				Name:           fs.Name,
				Detail:         fileDetail(f, fs),
				Kind:           protocol.SymbolKindFile,
				Range:          span(first.Node.Start, last.Node.End),
				SelectionRange: span(first.Start, first.End),
			}
			for _, h := range f.Hunks {
				hl := lines[h.Header]
				end := hl.Node.End
				if k := len(h.Lines); k > 0 {
					end = lines[h.Lines[k-1].Patch].Node.End
				}
				fsym.Children = append(fsym.Children, protocol.DocumentSymbol{
					Name:           fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldCount, h.NewStart, h.NewCount),
					Detail:         h.Section,
					Kind:           protocol.SymbolKindNamespace,
					Range:          span(hl.Node.Start, end),
					SelectionRange: span(hl.Start, hl.End),
				})
			}
			if lo < 0 || first.Node.Start < lo {
				lo = first.Node.Start
			}
			hi = max(hi, last.Node.End)
			dir.Children = append(dir.Children, fsym)
		}
		dir.Range = span(lo, hi)
		dir.SelectionRange = dir.Children[0].SelectionRange
		out = append(out, dir)
	}
	if cs := an.Doc.Root.Member("comments"); cs != nil && len(an.Doc.Review.Comments) > 0 {
		group := protocol.DocumentSymbol{Name: "comments", Kind: protocol.SymbolKindArray,
			Detail: countsDetail(features.StateCounts(an.Doc)), Range: span(cs.KeyStart, cs.End), SelectionRange: span(cs.KeyStart, cs.KeyEnd)}
		for i, c := range an.Doc.Review.Comments {
			sel := exchange.NodeRange(c.Node)
			if id := c.Member("id"); id != nil {
				sel = exchange.NodeRange(id)
			}
			group.Children = append(group.Children, protocol.DocumentSymbol{
				Name:           commentTitle(c, an.Anchors.Resolutions[i]),
				Detail:         c.StateNorm() + " · " + features.FirstLine(c.Body),
				Kind:           protocol.SymbolKindEvent,
				Deprecated:     c.StateNorm() == exchange.StateDismissed,
				Range:          span(c.Node.Start, c.Node.End),
				SelectionRange: span(sel.Start, sel.End),
			})
		}
		out = append(out, group)
	}
	return out, nil
}

func fileDetail(f *anchor.FileDiff, fs features.FileSummary) string {
	status := ""
	switch f.Status {
	case anchor.NewFile:
		status = "new · "
	case anchor.DeletedFile:
		status = "deleted · "
	case anchor.Renamed:
		status = "renamed from " + f.OldName + " · "
	case anchor.Copied:
		status = "copied from " + f.OldName + " · "
	}
	return status + changedActive(fs.Changed, fs.Active)
}

// changedActive reads "3 changed lines, 1 active comment".
func changedActive(changed, active int) string {
	return anchor.Plural(changed, "changed line", "changed lines") + ", " + anchor.Plural(active, "active comment", "active comments")
}

// commentTitle names a comment in the outline: its id and its anchor.
func commentTitle(c *exchange.Comment, r *anchor.Resolution) string {
	id := c.ID
	if id == "" {
		id = fmt.Sprintf("#%d", c.Index+1)
	}
	where := fmt.Sprintf("%s %s %d", c.Path, c.SideNorm(), c.StartLine)
	if c.EndLine > c.StartLine {
		where += fmt.Sprintf("-%d", c.EndLine)
	}
	if r != nil && !r.Resolved && !r.Skipped && c.StateNorm() != exchange.StateDismissed {
		where += " (does not resolve)"
	}
	return id + " · " + where
}

func countsDetail(counts map[string]int) string { return features.StateWords(counts) }
