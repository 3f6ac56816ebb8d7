package lsp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// Code actions come in three families:
//
//   - quickfix: every fix of every diagnostic the request is about, built
//     from the server's own analysis of the same snapshot (the diagnostic's
//     fixes, never its message);
//   - source.fixAll.lreview: the fixes that need no choice, all at once;
//   - editing actions (dismiss, restore, reactivate, reply, re-anchor,
//     comment on a diff line) wherever the cursor is. They are
//     refactor.rewrite, because they change the review by a person's
//     choice, not because something is wrong; the one exception is an
//     action that settles a reported problem of its comment (reactivating
//     an orphaned comment that resolves again, re-anchoring a stale one,
//     dismissing a comment whose anchor broke): that is a quickfix for
//     that diagnostic, so that editors list it with the problem.
//
// Edits are WorkspaceEdit.changes: every client supports them, and a
// review is one document, so versioned documentChanges would buy little.

// CommandApplyEdit is the command of a code action sent to a client
// without codeActionLiteralSupport, which takes Commands only: its one
// argument is the action's WorkspaceEdit, which the server asks the client
// to apply (workspace/applyEdit) when the person picks it.
const CommandApplyEdit = "lreview.applyEdit"

// codeAction answers with CodeAction literals, or with Commands to a
// client that declared no codeActionLiteralSupport (none at all to a
// client that cannot apply a server's edit either).
func codeAction(ctx context.Context, s *requestView, p *protocol.CodeActionParams) (any, error) {
	actions, err := codeActionLiterals(ctx, s, p)
	if err != nil {
		return nil, err
	}
	caps := s.clientCaps()
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
func applyEdit(ctx context.Context, s *requestView, args []any) (any, error) {
	var edit protocol.WorkspaceEdit
	if len(args) != 1 || remarshal(args[0], &edit) != nil || len(edit.Changes) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandApplyEdit+" takes one argument, a WorkspaceEdit with changes")
	}
	if !s.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandApplyEdit+" needs a client that supports workspace/applyEdit")
	}
	var res protocol.ApplyWorkspaceEditResponse
	if _, err := s.conn.Call(ctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{Edit: edit}, &res); err != nil {
		return nil, err
	}
	if !res.Applied {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "the client did not apply the edit: "+res.FailureReason)
	}
	return nil, nil
}

func codeActionLiterals(ctx context.Context, s *requestView, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	if s.isSource(p.TextDocument.URI) {
		return sourceCodeActions(ctx, s, p) // sourcerequests.go
	}
	conv, an, span, err := s.fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	settings := s.currentSettings()
	req := actionRequest{
		uri:      p.TextDocument.URI,
		conv:     conv,
		span:     span,
		context:  p.Context,
		disabled: settings.Diagnostics.Disabled,
		opts:     features.ActionOptions{Author: settings.Author, Now: s.opts.Now()},
		canShow:  s.canShowDocument(),
	}
	out := s.appliedActions(codeActions(an.Report, req), req, an)
	out = append(out, s.contractActions(p.TextDocument.URI, an, req)...)
	out = append(out, s.bodyFileActions(req, an)...)
	return append(out, s.suggestionActions(p.TextDocument.URI, an, span, p.Context.Only)...), nil
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

// codeActions computes the actions of req on the checked document rep.
func codeActions(rep *anchor.Report, req actionRequest) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	visible := visibleDiagnostics(rep.Diagnostics, req.disabled)
	targets := targetDiagnostics(visible, req)
	if req.wants(protocol.QuickFix) {
		targets = withComment(targets, features.CommentDiagnostics(features.Analysis{Report: rep}, visible, req.span.Start))
	}
	// Actions already offered, by their edits, so that one change reached
	// two ways (the same fix of two diagnostics, an editing action that is
	// a fix) is listed once.
	offered := map[string]bool{}
	if req.wants(protocol.QuickFix) {
		out = quickFixes(out, targets, req, offered)
	}
	if req.wants(protocol.QuickFix) || req.wants(protocol.RefactorRewrite) {
		for _, a := range features.ActionsAt(features.Analysis{Report: rep}, req.span.Start, req.span.End, req.opts) {
			if offered[editsKey(a.Edits)] {
				continue
			}
			ca := protocol.CodeAction{Title: a.Title, Kind: protocol.RefactorRewrite, Edit: req.edit(a.Edits), Command: req.bodyCommand(a)}
			// Asked for refactorings only, a fix reached from elsewhere in
			// its comment is still a rewrite the person may want.
			if d := a.Resolves; d != nil && req.wants(protocol.QuickFix) && !slices.Contains(req.disabled, d.Code) {
				ca.Kind = protocol.QuickFix
				ca.Diagnostics = req.conv.Diagnostics(req.uri, []exchange.Diagnostic{*d})
			}
			if req.wants(ca.Kind) {
				out = append(out, ca)
				offered[editsKey(a.Edits)] = true
			}
		}
	}
	// The preferred fix first: an editor that shows the list without the
	// flag (or selects its first item) still proposes it.
	slices.SortStableFunc(out, func(a, b protocol.CodeAction) int {
		return cmp.Compare(boolRank(a.IsPreferred), boolRank(b.IsPreferred))
	})
	if req.wants(CodeActionKindFixAll) && len(rep.Doc.Syntax) == 0 {
		// What the user sees is what gets fixed: silenced codes are left
		// alone here too. A document with syntax errors gets no fixAll,
		// as `lreview-lsp fix` refuses it: its structure is a guess, and
		// fixing all at once (on save, unseen) must never lose data.
		shown := *rep
		shown.Diagnostics = visible
		// Asked for by kind (on save, a source menu) it is always offered;
		// in the light bulb only beside a diagnostic it fixes, and not
		// when it is the one quick fix already listed there.
		edits, applied := anchor.SafeEdits(&shown)
		bulb := len(req.context.Only) == 0
		if len(edits) > 0 && (!bulb || fixesAny(applied, targets) && !offered[editsKey(edits)]) {
			out = append(out, protocol.CodeAction{
				Title: features.FixAllTitle(applied),
				Kind:  CodeActionKindFixAll,
				Edit:  req.edit(edits),
			})
		}
	}
	return out
}

// quickFixes appends the fixes of the target diagnostics. A fix whose
// edits an earlier one has already (the same dismiss offered by two
// diagnostics of one comment) is not listed again: the diagnostic joins
// the earlier action's list instead.
func quickFixes(out []protocol.CodeAction, targets []exchange.Diagnostic, req actionRequest, offered map[string]bool) []protocol.CodeAction {
	at := map[string]int{}
	for _, d := range targets {
		pd := req.conv.Diagnostics(req.uri, []exchange.Diagnostic{d})
		for _, f := range d.Fixes {
			key := editsKey(f.Edits)
			if i, ok := at[key]; ok {
				if !slices.ContainsFunc(out[i].Diagnostics, func(x protocol.Diagnostic) bool { return x.Range == pd[0].Range && x.Code == pd[0].Code }) {
					out[i].Diagnostics = append(out[i].Diagnostics, pd...)
				}
				out[i].IsPreferred = out[i].IsPreferred || f.Preferred
				continue
			}
			at[key] = len(out)
			offered[key] = true
			out = append(out, protocol.CodeAction{
				Title:       f.Title,
				Kind:        protocol.QuickFix,
				Diagnostics: pd,
				IsPreferred: f.Preferred,
				Edit:        req.edit(f.Edits),
			})
		}
	}
	return out
}

// withComment adds to targets the diagnostics of the comment the cursor
// is in (with fixes) that it lacks, and orders them as the document does:
// one change that fixes two of them is titled by the first, wherever the
// cursor is.
func withComment(targets, comment []exchange.Diagnostic) []exchange.Diagnostic {
	for _, d := range comment {
		if len(d.Fixes) > 0 && !slices.ContainsFunc(targets, func(t exchange.Diagnostic) bool { return t.Code == d.Code && t.Range == d.Range }) {
			targets = append(targets, d)
		}
	}
	slices.SortStableFunc(targets, func(a, b exchange.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Range.Start, b.Range.Start), cmp.Compare(a.Range.End, b.Range.End))
	})
	return targets
}

func boolRank(preferred bool) int {
	if preferred {
		return 0
	}
	return 1
}

// fixesAny reports whether the safe fixes applied include one of the
// target diagnostics' (SafeEdits reports each by its diagnostic's code and
// start).
func fixesAny(applied []anchor.Applied, targets []exchange.Diagnostic) bool {
	for _, a := range applied {
		for _, d := range targets {
			if a.Code == d.Code && a.Offset == d.Range.Start {
				return true
			}
		}
	}
	return false
}

// targetDiagnostics picks the diagnostics whose fixes the request is
// about. The client's context.diagnostics name them when they match the
// server's (same code and range: the client may send diagnostics of an
// older version, or of other servers); otherwise every diagnostic that
// touches the requested range does.
func targetDiagnostics(ds []exchange.Diagnostic, req actionRequest) []exchange.Diagnostic {
	var named, touching []exchange.Diagnostic
	for _, d := range ds {
		if len(d.Fixes) == 0 {
			continue
		}
		if req.named(d) {
			named = append(named, d)
		}
		if d.Range.Start <= req.span.End && req.span.Start <= d.Range.End {
			touching = append(touching, d)
		}
	}
	if len(named) > 0 {
		return named
	}
	return touching
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

// editsKey identifies a list of edits, to recognise the same change
// reached two ways.
func editsKey(edits []exchange.Edit) string {
	return fmt.Sprint(edits)
}
