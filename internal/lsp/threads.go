package lsp

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// The threads of the source files as data, for a client that draws them
// itself, and a reply written from one: the person types Markdown, the
// server writes the JSON string.

// CommandThreads answers the comment threads placed in the source files:
// with no argument every file's, with one, {"uri": <document>}, that
// document's. Its result is a list of SourceThread, by file, then line.
const CommandThreads = "lreview.threads"

// CommandReply writes a reply into a review: its arguments are the
// review's URI, the comment's name (ThreadData.Comment) and the reply's
// Markdown. The server signs it (the setting author) and stamps it, sends
// the edit as workspace/applyEdit and answers null once it is applied.
// The review is edited as any edit of the client's: saving it is the
// client's (or the person's) choice.
const CommandReply = "lreview.reply"

// maxReplyBytes bounds a reply's text: a review is read whole.
const maxReplyBytes = 1 << 20

// SourceThread is one of CommandThreads' answers: a thread and where it
// is placed.
type SourceThread struct {
	URI    protocol.DocumentURI `json:"uri"`
	Range  protocol.Range       `json:"range"`
	Thread ThreadData           `json:"thread"`
}

// threadsOf runs CommandThreads.
func threadsOf(ctx context.Context, v *requestView, args []any) (any, error) {
	var only struct {
		URI protocol.DocumentURI `json:"uri"`
	}
	if len(args) > 1 || len(args) == 1 && (remarshal(args[0], &only) != nil || only.URI == "") {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandThreads+` takes no argument (every file) or one, {"uri": <document>}`)
	}
	var targets map[protocol.DocumentURI]bool
	if only.URI != "" {
		targets = map[protocol.DocumentURI]bool{only.URI: true}
	}
	placed := v.placeComments(v.reviewsInScope(ctx), targets)
	enc := v.encoding()
	out := []SourceThread{}
	uris := slices.Collect(maps.Keys(placed))
	slices.SortFunc(uris, func(a, b protocol.DocumentURI) int {
		return strings.Compare(fileOf(string(a)), fileOf(string(b)))
	})
	for _, u := range uris {
		for i := range placed[u] {
			pc := &placed[u][i]
			out = append(out, SourceThread{URI: u, Range: pc.rng, Thread: threadData(pc, enc)})
		}
	}
	return out, nil
}

// replyTo runs CommandReply.
func replyTo(ctx context.Context, v *requestView, args []any) (any, error) {
	var review protocol.DocumentURI
	var name, text string
	if len(args) != 3 || remarshal(args[0], &review) != nil || remarshal(args[1], &name) != nil || remarshal(args[2], &text) != nil || review == "" || name == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandReply+" takes three arguments: the review's URI, the comment's name and the reply's text")
	}
	if len(text) > maxReplyBytes {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: the reply has %d bytes, more than the %d a reply may have", CommandReply, len(text), maxReplyBytes))
	}
	if !v.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandReply+" needs a client that supports workspace/applyEdit")
	}
	reviews := v.reviewsInScope(ctx)
	at := slices.IndexFunc(reviews, func(r scopedReview) bool {
		return r.uri == review || fileOf(string(r.uri)) != "" && fileOf(string(r.uri)) == fileOf(string(review))
	})
	if at < 0 {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s is not a review in scope", review))
	}
	r := &reviews[at]
	doc := r.an.Doc
	if err := doc.SyntaxRefusal("reply in " + r.name); err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	ci := slices.IndexFunc(doc.Review.Comments, func(c *exchange.Comment) bool { return c.Name() == name })
	if ci < 0 {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s has no comment %s", r.name, name))
	}
	author := cmp.Or(v.currentSettings().Author, features.DefaultAuthor)
	e, ok := exchange.ReplyEdit(doc.Text, doc.Review.Comments[ci], author, text, features.Stamp(v.opts.Now()))
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: %s's replies are not a list a reply can be added to", r.name, name))
	}
	return nil, v.askApply(ctx, "Reply to "+name, *v.reviewEdit(r, []exchange.Edit{e}, v.encoding()), codeRequestFailed, "the reply")
}
