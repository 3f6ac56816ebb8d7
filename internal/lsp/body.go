package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
)

// A body edited as Markdown (features/body.go), through two commands
// every editor calls alike, so that one encoder writes every body back.

// CommandEditBody answers the body at a position: its arguments are the
// review's URI and the position; its result a BodyResult.
const CommandEditBody = "lreview.editBody"

// CommandSetBody writes a body back: its arguments are the review's URI,
// the comment's name, the reply's index (-1 for the comment's own body),
// as CommandEditBody answered them, and the new text. The server sends
// the edit as workspace/applyEdit and answers once it is applied.
const CommandSetBody = "lreview.setBody"

// BodyResult is CommandEditBody's answer.
type BodyResult struct {
	URI     protocol.DocumentURI `json:"uri"`
	Comment string               `json:"comment"`
	Reply   int                  `json:"reply"`
	// Text is the body unescaped; Range its JSON string, quotes and all.
	Text  string         `json:"text"`
	Range protocol.Range `json:"range"`
}

func editBody(ctx context.Context, s *requestView, args []any) (any, error) {
	var docURI protocol.DocumentURI
	var pos protocol.Position
	if len(args) != 2 || remarshal(args[0], &docURI) != nil || remarshal(args[1], &pos) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandEditBody+" takes two arguments: the review's URI and a position")
	}
	conv, an, off, err := s.fileAt(ctx, docURI, pos)
	if err != nil {
		return nil, err
	}
	b, err := features.BodyAtOffset(an.Doc, off)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: no body to edit: %v", docURI, err))
	}
	return BodyResult{URI: docURI, Comment: b.Place.Comment, Reply: b.Place.Reply, Text: b.Text, Range: conv.Range(b.Range)}, nil
}

func setBody(ctx context.Context, s *requestView, args []any) (any, error) {
	var docURI protocol.DocumentURI
	var place features.BodyCursor
	var text string
	if len(args) != 4 || remarshal(args[0], &docURI) != nil || remarshal(args[1], &place.Comment) != nil ||
		remarshal(args[2], &place.Reply) != nil || remarshal(args[3], &text) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandSetBody+" takes four arguments: the review's URI, the comment's name, the reply's index (-1: the comment's body) and the text")
	}
	if !s.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandSetBody+" needs a client that supports workspace/applyEdit")
	}
	conv, an, err := s.fileAnalysis(ctx, docURI)
	if err != nil {
		return nil, err
	}
	edits, err := features.SetBodyEdit(an.Doc, place, text)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: the body cannot be written: %v", docURI, err))
	}
	if len(edits) == 0 {
		return nil, nil
	}
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{docURI: conv.TextEdits(edits)}}
	return applyEdit(ctx, s, []any{edit})
}
