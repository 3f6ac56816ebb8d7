package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// CommandShow is the command of every code lens: its one argument is a
// Location in the document, and the server asks the client to show it
// (window/showDocument, LSP 3.16) with the cursor there. A server command
// works unchanged in the clients we ship for: VS Code's language client
// registers the commands of executeCommandProvider and forwards them, and
// Neovim's codelens.run sends workspace/executeCommand for a command the
// server lists. Neither needs client-side code.
// A client that cannot show a document (no window/showDocument support)
// is not offered the command: its lenses are labels without one.
const CommandShow = "lreview.show"

// codeRequestFailed is LSP 3.17's RequestFailed (-32803): the request was
// valid but could not be carried out. go.lsp.dev/protocol v0.12.0
// predates it.
const codeRequestFailed jsonrpc2.Code = -32803

// codeLenses converts features.Lenses: the review's comments by state
// and its problems at the top, each file's comments on its header, every
// lens going to the place that needs attention.
func codeLenses(ctx context.Context, v *requestView, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	conv, an, err := v.fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	axis, axisDiags, hasAxis := v.verdictLens(ctx, p.TextDocument.URI, an)
	shown := features.VisibleDiagnostics(append(slices.Clip(an.Diagnostics), axisDiags...), v.currentSettings().Diagnostics.Disabled)
	canShow := v.clientCaps().showDocument
	out := []protocol.CodeLens{}
	lenses := features.Lenses(an, shown)
	if hasAxis {
		lenses = append(lenses, axis)
	}
	st, _ := v.branch(p.TextDocument.URI, an)
	if l, ok := features.BranchLens(an, st); ok {
		lenses = append(lenses, l)
	}
	for _, l := range lenses {
		cmd := &protocol.Command{Title: l.Title}
		if canShow {
			target := protocol.Location{URI: p.TextDocument.URI, Range: conv.Range(l.Target)}
			cmd.Command, cmd.Arguments = CommandShow, []any{target}
		}
		out = append(out, protocol.CodeLens{Range: conv.Range(l.Range), Command: cmd})
	}
	return append(out, cohortLenses(v, p.TextDocument.URI, conv, an)...), nil
}

// executeCommand runs CommandShow: it asks the client to show the
// location with the cursor there, and answers once the client has.
func executeCommand(ctx context.Context, v *requestView, p *protocol.ExecuteCommandParams) (any, error) {
	switch p.Command {
	case CommandApplyEdit:
		return applyEdit(ctx, v, p.Arguments)
	case CommandApplySuggestion:
		return applySuggestion(ctx, v, p.Arguments)
	case CommandNextComment, CommandPreviousComment:
		return moveToComment(ctx, v, p.Arguments, p.Command == CommandNextComment)
	case CommandShowBody:
		return showBody(ctx, v, p.Arguments)
	case CommandEditBody:
		return editBody(ctx, v, p.Arguments)
	case CommandSetBody:
		return setBody(ctx, v, p.Arguments)
	case CommandOpenBody:
		return openBody(ctx, v, p.Arguments)
	case CommandMarkCohort:
		return markCohort(ctx, v, p.Arguments) // shape.go
	case CommandNextCohort:
		return nextCohort(ctx, v, p.Arguments)
	case CommandThreads:
		return threadsOf(ctx, v, p.Arguments)
	case CommandReply:
		return replyTo(ctx, v, p.Arguments)
	}
	if p.Command != CommandShow {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q: the server has %s", p.Command, strings.Join(ServerCapabilities(exchange.UTF16, true).ExecuteCommandProvider.Commands, ", ")))
	}
	var loc protocol.Location
	if len(p.Arguments) != 1 || remarshal(p.Arguments[0], &loc) != nil || loc.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandShow+" takes one argument, a Location ({uri, range})")
	}
	if !v.clientCaps().showDocument {
		return nil, jsonrpc2.NewError(codeRequestFailed, CommandShow+" needs a client that supports window/showDocument")
	}
	var res protocol.ShowDocumentResult
	if _, err := v.conn.Call(ctx, "window/showDocument", &protocol.ShowDocumentParams{URI: protocol.URI(loc.URI), TakeFocus: true, Selection: &loc.Range}, &res); err != nil {
		return nil, err
	}
	if !res.Success {
		return nil, jsonrpc2.NewError(codeRequestFailed, "the client did not show "+string(loc.URI))
	}
	return nil, nil
}

// remarshal decodes an argument the JSON decoder left generic.
func remarshal(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
