package lsp

import (
	"context"
	"fmt"

	"github.com/leanreview/lreview-lsp/internal/features"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/fileuri"
)

// documentLinks links comments' paths and file headers to the working
// tree's files (see features.SourceLinks), at the line where
// their lines are: file:///…/handler.go#L74, the fragment editors read
// as a line.
func documentLinks(ctx context.Context, v *requestView, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	conv, an, err := v.fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	t := v.treeFor(p.TextDocument.URI)
	if t == nil {
		return out, nil
	}
	for _, l := range features.SourceLinks(an, t) {
		target := fileuri.FromPath(l.File)
		if l.Line > 0 {
			target += fmt.Sprintf("#L%d", l.Line)
		}
		out = append(out, protocol.DocumentLink{Range: conv.Range(l.Range), Target: protocol.DocumentURI(target)})
	}
	return out, nil
}
