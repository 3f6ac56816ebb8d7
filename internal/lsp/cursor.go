package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
)

// CommandShowBody puts the cursor in a body an action wrote empty
// (features.BodyCursor): "Comment on …" and "Reply to …" carry it besides
// their edit, so that the client applies the edit, then runs the command,
// and the server, which has the edited text by then (the client sends
// the change before the request), shows the review with the cursor
// between the body's quotes (window/showDocument). Its arguments are the
// review's URI, the comment's name and the reply's index (-1: the
// comment's own body). Clients that cannot show a document get the edit
// alone.
const CommandShowBody = "lreview.showBody"

// bodyCommand is the CommandShowBody of the body at c, or nil.
func (r actionRequest) bodyCommand(c *features.BodyCursor) *protocol.Command {
	if !r.canShow || c == nil {
		return nil
	}
	return &protocol.Command{Title: "Type the body", Command: CommandShowBody, Arguments: []any{r.uri, c.Comment, c.Reply}}
}

// bodyWait bounds how long CommandShowBody waits for the change that
// makes the body it names.
const bodyWait = 2 * time.Second

// showBody runs CommandShowBody.
func showBody(ctx context.Context, v *requestView, args []any) (any, error) {
	var docURI protocol.DocumentURI
	var bc features.BodyCursor
	if len(args) != 3 || remarshal(args[0], &docURI) != nil || remarshal(args[1], &bc.Comment) != nil || remarshal(args[2], &bc.Reply) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandShowBody+" takes three arguments: the review's URI, the comment's name and the reply's index (-1 for the comment's body)")
	}
	conv, an, err := v.fileAnalysis(ctx, docURI)
	off, ok := 0, false
	if err == nil {
		off, ok = features.BodyAt(an.Doc, bc)
	}
	// The edit that made the body can come in a change after the command
	// (Helix sends a code action's command before the didOpen and
	// didChange of its edit — a reply from a source file edits a review
	// that may not be open yet — and a change may wait for a version gap:
	// versions.go): the command is about the text the client has by
	// then, so a newer version holding the body is waited for, a bounded
	// while.
	seen, stop := v.docs[docURI], time.Now().Add(bodyWait)
	for !ok && ctx.Err() == nil && time.Now().Before(stop) {
		sn, next := v.latestAndNext(docURI)
		if sn == nil || sn == seen {
			if v.opts.bodyWaiting != nil {
				v.opts.bodyWaiting()
			}
			wait := time.NewTimer(time.Until(stop))
			select {
			case <-next: // a version of some document was made
			case <-wait.C:
			case <-ctx.Done():
			}
			wait.Stop()
			continue
		}
		seen = sn
		if later, err := sn.analysis(ctx); err == nil {
			an = later
			conv = Converter{M: an.Doc.Mapper(), Enc: sn.enc}
			off, ok = features.BodyAt(an.Doc, bc)
		}
	}
	if !ok && an == nil {
		return nil, err // the review never came
	}
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s has no body of %s to show (reply %d)", docURI, bc.Comment, bc.Reply))
	}
	// A client with no Markdown buffer of its own (Helix) gets the new
	// body as a Markdown file (bodyfile.go), as "Edit … as Markdown"
	// opens one: the person writes Markdown, the server the JSON string.
	if v.bodies.offer.Load() {
		if b, err := features.BodyOf(an.Doc, bc); err == nil {
			if abs, err := v.writeBodyFile(docURI, b); err == nil {
				file := protocol.Location{URI: protocol.DocumentURI(fileuri.FromPath(abs))}
				return executeCommand(ctx, v, &protocol.ExecuteCommandParams{Command: CommandShow, Arguments: []any{file}})
			}
		}
	}
	at := conv.Position(off)
	loc := protocol.Location{URI: docURI, Range: protocol.Range{Start: at, End: at}}
	return executeCommand(ctx, v, &protocol.ExecuteCommandParams{Command: CommandShow, Arguments: []any{loc}})
}
