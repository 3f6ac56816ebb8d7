package lsp

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// Requests on a source document: the hover shows the threads on the
// line, the code actions answer them (reply, dismiss, apply a
// suggestion, show in the review), and the commands nextComment and
// previousComment move across the comments of every review in scope.
// The edits change the review only (or, for a suggestion, the source),
// and the server writes no file.

// The commands that move to the next or the previous comment of the
// reviews in scope, in path order, then line, wrapping around. Their one
// argument is {"uri": <document>, "position": <Position>}; they answer
// with the comment's Location, or null when there is none.
const (
	CommandNextComment     = "lreview.nextComment"
	CommandPreviousComment = "lreview.previousComment"
)

// commentsAt returns the comments placed in the source document uri
// whose lines hold line (from 0).
func (v *requestView) commentsAt(ctx context.Context, u protocol.DocumentURI, line uint32) []placedComment {
	reviews := v.reviewsInScope(ctx)
	var out []placedComment
	for _, pc := range v.placeComments(reviews, map[protocol.DocumentURI]bool{u: true})[u] {
		if pc.rng.Start.Line <= line && line <= pc.rng.End.Line {
			out = append(out, pc)
		}
	}
	return out
}

// sourceHover shows the whole thread of each comment on the line.
func sourceHover(ctx context.Context, v *requestView, p *protocol.HoverParams) (*protocol.Hover, error) {
	here := v.commentsAt(ctx, p.TextDocument.URI, p.Position.Line)
	if len(here) == 0 {
		return nil, nil
	}
	parts := make([]string, len(here))
	rng := here[0].rng
	for i, pc := range here {
		parts[i] = features.ThreadMarkdown(pc.review.an, pc.in, pc.named)
		if lessPosition(pc.rng.Start, rng.Start) {
			rng.Start = pc.rng.Start
		}
		if lessPosition(rng.End, pc.rng.End) {
			rng.End = pc.rng.End
		}
	}
	text := strings.Join(parts, "\n\n---\n\n")
	contents := protocol.MarkupContent{Kind: protocol.Markdown, Value: text}
	if !v.clientCaps().hoverMarkdown {
		contents = protocol.MarkupContent{Kind: protocol.PlainText, Value: features.PlainText(text)}
	}
	// The range holds the position, as the protocol wants.
	if p.Position.Line == rng.Start.Line && p.Position.Character < rng.Start.Character {
		rng.Start.Character = p.Position.Character
	}
	if p.Position.Line == rng.End.Line && p.Position.Character > rng.End.Character {
		rng.End.Character = p.Position.Character
	}
	return &protocol.Hover{Contents: contents, Range: &rng}, nil
}

// sourceCodeActions are the actions on the comments on the requested
// lines: quick fixes of their diagnostics, so that editors list them
// with the comment.
func sourceCodeActions(ctx context.Context, v *requestView, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	if !wantsKind(p.Context.Only, protocol.QuickFix) {
		return []protocol.CodeAction{}, nil
	}
	reviews := v.reviewsInScope(ctx)
	placed := v.placeComments(reviews, map[protocol.DocumentURI]bool{p.TextDocument.URI: true})[p.TextDocument.URI]
	settings := v.currentSettings()
	caps := v.clientCaps()
	enc := v.encoding()
	opts := features.ActionOptions{Author: settings.Author, Now: v.opts.Now()}
	out := []protocol.CodeAction{}
	for i := range placed {
		pc := &placed[i]
		if pc.rng.End.Line < p.Range.Start.Line || pc.rng.Start.Line > p.Range.End.Line {
			continue
		}
		diag := v.sourceDiagnostic(pc, commentSeverity(settings.Comments.Severity), caps.related, enc)
		add := func(a protocol.CodeAction) {
			a.Kind = protocol.QuickFix
			a.Diagnostics = []protocol.Diagnostic{diag}
			out = append(out, a)
		}
		r := pc.review
		// Where the comments of several reviews share the file, each
		// action names its review, as the diagnostics do: two "Reply to
		// c1" would be a guess.
		title := func(t string) string {
			if pc.named == "" {
				return t
			}
			return features.InReview(t, pc.named)
		}
		for _, sa := range features.SourceActions(r.an, pc.in, opts) {
			sa.Title = title(sa.Title)
			if !caps.applyEdit && !caps.actionLiterals {
				continue
			}
			a := protocol.CodeAction{Title: sa.Title, Edit: v.reviewEdit(r, sa.Edits, enc)}
			if sa.Cursor > 0 && caps.showDocument && caps.actionLiterals {
				// The new reply's body, shown as every client shows a new
				// body (lreview.showBody): Neovim's plugin opens it as
				// Markdown, Helix gets a Markdown file.
				replies := len(r.an.Doc.Review.Comments[pc.in.Comment].Replies)
				a.Command = &protocol.Command{Title: sa.Title, Command: CommandShowBody, Arguments: []any{r.uri, pc.in.Name, replies}}
			}
			add(a)
		}
		if sg, err := features.SuggestionOf(r.an, r.tree, pc.in.Comment); err == nil {
			conv := Converter{M: sg.File.Mapper(), Enc: enc}
			edits := conv.TextEdits([]exchange.Edit{sg.Edit})
			target := uriOfFile(v.clientNames(nil), sg.File.Abs)
			add(protocol.CodeAction{Title: title(sg.Title), Edit: v.documentEdit(target, v.bufferVersion(target), edits)})
		}
		if caps.showDocument {
			conv := Converter{M: r.an.Doc.Mapper(), Enc: enc}
			loc := protocol.Location{URI: r.uri, Range: conv.Range(pc.in.Thread[0].Range)}
			show := title(features.ShowTitle(pc.in.Name))
			add(protocol.CodeAction{Title: show, Command: &protocol.Command{Title: show, Command: CommandShow, Arguments: []any{loc}}})
		}
	}
	return out, nil
}

// reviewEdit is edits of review r as a WorkspaceEdit: versioned (the
// version the edits were computed on; null for a review not open, whose
// file on disk is the master) when the client takes document changes.
func (v *requestView) reviewEdit(r *scopedReview, edits []exchange.Edit, enc exchange.Encoding) *protocol.WorkspaceEdit {
	conv := Converter{M: r.an.Doc.Mapper(), Enc: enc}
	var version *int32
	if r.open {
		ver := r.version
		version = &ver
	}
	return v.documentEdit(r.uri, version, conv.TextEdits(edits))
}

// documentEdit is a WorkspaceEdit of one document.
func (v *requestView) documentEdit(u protocol.DocumentURI, version *int32, edits []protocol.TextEdit) *protocol.WorkspaceEdit {
	st := v.src
	st.mu.Lock()
	versioned := st.documentChanges
	st.mu.Unlock()
	if !versioned {
		return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{u: edits}}
	}
	return &protocol.WorkspaceEdit{DocumentChanges: []protocol.TextDocumentEdit{{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		Edits:        edits,
	}}}
}

// bufferVersion is the version of an open source document, nil when it
// is not open.
func (v *requestView) bufferVersion(u protocol.DocumentURI) *int32 {
	if b := v.buffers()[u]; b != nil {
		ver := b.version
		return &ver
	}
	return nil
}

// moveParams is the one argument of nextComment and previousComment.
type moveParams struct {
	URI      protocol.DocumentURI `json:"uri"`
	Position protocol.Position    `json:"position"`
}

// moveToComment runs nextComment (forward) or previousComment: the
// comment after (before) the position's line, across the files in path
// order, wrapping around.
func moveToComment(ctx context.Context, v *requestView, args []any, forward bool) (any, error) {
	var p moveParams
	if len(args) != 1 || remarshal(args[0], &p) != nil || p.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s and %s take one argument, {\"uri\": <document>, \"position\": <Position>}", CommandNextComment, CommandPreviousComment))
	}
	placed := v.placeComments(v.reviewsInScope(ctx), nil)
	var all []protocol.Location
	for u, list := range placed {
		for _, pc := range list {
			all = append(all, protocol.Location{URI: u, Range: pc.rng})
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := fileOf(string(all[i].URI)), fileOf(string(all[j].URI))
		if a != b {
			return a < b
		}
		return lessPosition(all[i].Range.Start, all[j].Range.Start)
	})
	here := cmp.Or(fileOf(string(p.URI)), string(p.URI))
	// fromHere orders a comment's file and line against the position's.
	fromHere := func(l protocol.Location) int {
		return cmp.Or(strings.Compare(fileOf(string(l.URI)), here), cmp.Compare(l.Range.Start.Line, p.Position.Line))
	}
	if forward {
		for _, l := range all {
			if fromHere(l) > 0 {
				return l, nil
			}
		}
		return all[0], nil
	}
	for i := len(all) - 1; i >= 0; i-- {
		if fromHere(all[i]) < 0 {
			return all[i], nil
		}
	}
	return all[len(all)-1], nil
}
