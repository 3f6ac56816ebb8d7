package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Code actions are features.Offers converted: quick fixes, refactor.rewrite
// editing actions and source.fixAll.lreview. Edits are
// WorkspaceEdit.changes: every client supports them, and a review is one
// document, so versioned documentChanges would buy little.

// CommandApplyEdit is the command of a code action sent to a client
// without codeActionLiteralSupport, which takes Commands only: its one
// argument is the action's WorkspaceEdit, which the server asks the client
// to apply (workspace/applyEdit) when the person picks it.
const CommandApplyEdit = "lreview.applyEdit"

// codeAction answers with CodeAction literals, or with Commands to a
// client that declared no codeActionLiteralSupport (none at all to a
// client that cannot apply a server's edit either).
func codeAction(ctx context.Context, v *requestView, p *protocol.CodeActionParams) (any, error) {
	actions, err := codeActionLiterals(ctx, v, p)
	if err != nil {
		return nil, err
	}
	caps := v.clientCaps()
	if caps.actionLiterals {
		for i := range actions {
			actions[i].IsPreferred = actions[i].IsPreferred && caps.preferred
		}
		return actions, nil
	}
	commands := []protocol.Command{}
	if !caps.applyEdit {
		return commands, nil
	}
	for _, a := range actions {
		if a.Command != nil && a.Edit == nil { // an action that runs a command of its own, not an edit
			commands = append(commands, *a.Command)
			continue
		}
		commands = append(commands, protocol.Command{Title: a.Title, Command: CommandApplyEdit, Arguments: []any{a.Edit}})
	}
	return commands, nil
}

// applyEdit runs CommandApplyEdit: it asks the client to apply the edit,
// and answers once the client has.
func applyEdit(ctx context.Context, v *requestView, args []any) (any, error) {
	var edit protocol.WorkspaceEdit
	if len(args) != 1 || remarshal(args[0], &edit) != nil || len(edit.Changes) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandApplyEdit+" takes one argument, a WorkspaceEdit with changes")
	}
	if !v.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandApplyEdit+" needs a client that supports workspace/applyEdit")
	}
	return nil, v.askApply(ctx, "", edit, jsonrpc2.InternalError, "the edit")
}

// askApply asks the client to apply edit (workspace/applyEdit) and waits
// for its answer: an error when it could not be asked, or, with code,
// when it did not apply the edit (what names it).
func (s *Server) askApply(ctx context.Context, label string, edit protocol.WorkspaceEdit, code jsonrpc2.Code, what string) error {
	var res protocol.ApplyWorkspaceEditResponse
	if _, err := s.conn.Call(ctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{Label: label, Edit: edit}, &res); err != nil {
		return err
	}
	if !res.Applied {
		return jsonrpc2.NewError(code, "the client did not apply "+what+": "+res.FailureReason)
	}
	return nil
}

func codeActionLiterals(ctx context.Context, v *requestView, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	if v.isSource(p.TextDocument.URI) {
		return sourceCodeActions(ctx, v, p) // sourcerequests.go
	}
	conv, an, span, err := v.fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	settings := v.currentSettings()
	req := actionRequest{
		uri:      p.TextDocument.URI,
		conv:     conv,
		span:     span,
		context:  p.Context,
		disabled: settings.Diagnostics.Disabled,
		opts:     features.ActionOptions{Author: settings.Author, Now: v.opts.Now()},
		canShow:  v.clientCaps().showDocument,
	}
	out := codeActions(an, req, v.treeFor(req.uri))
	out = append(out, v.contractActions(ctx, p.TextDocument.URI, an, req)...)
	out = append(out, v.branchActions(p.TextDocument.URI, an, req)...)
	out = append(out, v.bodyFileActions(req, an)...)
	return append(out, v.suggestionActions(p.TextDocument.URI, an, span, p.Context.Only)...), nil
}

// actionRequest is one codeAction request, resolved against a snapshot.
type actionRequest struct {
	uri      protocol.DocumentURI
	conv     Converter
	span     exchange.Range
	context  protocol.CodeActionContext
	disabled []string
	opts     features.ActionOptions
	// canShow: the client shows a document (window/showDocument), so
	// an action writing an empty body also puts the cursor there.
	canShow bool
}

// wants reports whether the client asked for actions of kind: `only` is
// hierarchical ("source" asks for "source.fixAll.lreview" too), and no
// `only` asks for everything.
func (r actionRequest) wants(kind protocol.CodeActionKind) bool {
	if len(r.context.Only) == 0 {
		return true
	}
	for _, o := range r.context.Only {
		if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

// codeActions converts the offers of req on an (features.Offers); t is
// the working tree, or nil.
func codeActions(an *anchor.Analysis, req actionRequest, t *worktree.Tree) []protocol.CodeAction {
	q := features.OfferQuery{
		Start: req.span.Start, End: req.span.End,
		Fixes: req.wants(protocol.QuickFix), Rewrites: req.wants(protocol.RefactorRewrite), FixAll: req.wants(CodeActionKindFixAll),
		Bulb:     len(req.context.Only) == 0,
		Disabled: req.disabled,
		Named:    req.named,
		Tree:     t,
		Opts:     req.opts,
	}
	offers := features.Offers(an, q)
	out := make([]protocol.CodeAction, 0, len(offers))
	for _, o := range offers {
		ca := protocol.CodeAction{Title: o.Title, Kind: offerKinds[o.Kind], Edit: req.edit(o.Edits), IsPreferred: o.Preferred, Command: req.bodyCommand(o.Cursor)}
		if len(o.Resolves) > 0 {
			ca.Diagnostics = req.conv.Diagnostics(req.uri, o.Resolves)
		}
		out = append(out, ca)
	}
	return out
}

// offerKinds are the protocol's kinds of the families of offers.
var offerKinds = [...]protocol.CodeActionKind{
	features.OfferFix:     protocol.QuickFix,
	features.OfferRewrite: protocol.RefactorRewrite,
	features.OfferFixAll:  CodeActionKindFixAll,
}

// named reports whether the client's context lists d.
func (r actionRequest) named(d exchange.Diagnostic) bool {
	rg := r.conv.Range(d.Range)
	for _, cd := range r.context.Diagnostics {
		if cd.Source != "" && cd.Source != "lreview" {
			continue
		}
		if cd.Range == rg && cd.Code != nil && fmt.Sprint(cd.Code) == d.Code {
			return true
		}
	}
	return false
}

func (r actionRequest) edit(edits []exchange.Edit) *protocol.WorkspaceEdit {
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{r.uri: r.conv.TextEdits(edits)}}
}
