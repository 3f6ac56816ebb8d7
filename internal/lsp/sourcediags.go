package lsp

import (
	"context"
	"maps"
	"slices"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The comments of the reviews in scope, published as diagnostics on the
// source files they are about (features.CommentsInSource), whether or
// not the files are open: so they are listed where an editor lists
// problems (VS Code's Problems panel, Neovim's quickfix list, Helix's
// workspace picker) before the file is opened.

// placedComment is a comment of a review placed in a source file.
type placedComment struct {
	review *scopedReview
	// named is the review's name when messages give it (more than one
	// review in scope), else "".
	named string
	in    features.InSource
	uri   protocol.DocumentURI
	rng   protocol.Range
}

// placeComments places the comments of reviews in the source files:
// every file when targets is nil, else only the source documents it
// names.
func (s *Server) placeComments(reviews []scopedReview, targets map[protocol.DocumentURI]bool) map[protocol.DocumentURI][]placedComment {
	settings := s.currentSettings()
	enc := s.encoding()
	names := s.clientNames(targets)
	out := map[protocol.DocumentURI][]placedComment{}
	for i := range reviews {
		r := &reviews[i]
		opts := features.InSourceOptions{Outdated: settings.Comments.Outdated == nil || *settings.Comments.Outdated}
		var paths []string
		if targets == nil {
			paths = []string{""}
		}
		for u := range targets {
			if rel, ok := r.tree.Rel(fileOf(string(u))); ok {
				paths = append(paths, rel)
			}
		}
		for _, p := range paths {
			opts.Only = p
			for _, in := range features.CommentsInSource(r.an, r.tree, opts) {
				u := uriOfFile(names, in.File.Abs)
				rng := sourceLocation(worktree.Location{File: in.File, Start: in.Start, End: in.End}, enc).Range
				out[u] = append(out[u], placedComment{review: r, in: in, uri: u, rng: rng})
			}
		}
	}
	for _, list := range out {
		sort.SliceStable(list, func(i, j int) bool {
			a, b := list[i].rng, list[j].rng
			return lessPosition(a.Start, b.Start) || a.Start == b.Start && lessPosition(a.End, b.End)
		})
		// A file the comments of several reviews are on: each names its
		// review.
		for i := range list {
			if list[i].review != list[0].review {
				for k := range list {
					list[k].named = list[k].review.name
					list[k].in.Message = features.InReview(list[k].in.Message, list[k].named)
				}
				break
			}
		}
	}
	return out
}

func lessPosition(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// commentSeverity is the setting comments.severity's severity.
func commentSeverity(name string) protocol.DiagnosticSeverity {
	switch name {
	case "error":
		return protocol.DiagnosticSeverityError
	case "warning":
		return protocol.DiagnosticSeverityWarning
	case "hint":
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityInformation
}

// sourceDiagnostic is a placed comment's diagnostic: over its lines, an
// outdated one a hint, with the thread in the review as related
// information (to a client that takes it).
func (s *Server) sourceDiagnostic(pc *placedComment, severity protocol.DiagnosticSeverity, related bool, enc exchange.Encoding) protocol.Diagnostic {
	d := protocol.Diagnostic{Range: pc.rng, Severity: severity, Code: features.CodeReviewComment, Source: "lreview", Message: pc.in.Message, Data: threadData(pc, enc)}
	if pc.in.Outdated || pc.in.Applied {
		d.Severity = protocol.DiagnosticSeverityHint
	}
	if related {
		conv := Converter{M: pc.review.an.Doc.Mapper(), Enc: enc}
		for _, p := range pc.in.Thread {
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: pc.review.uri, Range: conv.Range(p.Range)},
				Message:  p.Message,
			})
		}
	}
	return d
}

// ThreadData is the `data` of a comment's diagnostic on a source file
// (and the thread of each of CommandThreads' answers): the thread as the
// review holds it, so that a client draws threads, panels and lists from
// words, never from the diagnostic's message or the hover's Markdown.
// README's "Threads as data" documents it for plugin writers; a member
// added later is added, none is renamed.
type ThreadData struct {
	// Review is the review's URI, ReviewName its base name.
	Review     protocol.DocumentURI `json:"review"`
	ReviewName string               `json:"reviewName"`
	// Comment names the comment as every action and command does: its id,
	// or #N (from 1) when it has none.
	Comment string `json:"comment"`
	Author  string `json:"author"`
	// State is active (the only state placed in the source for now),
	// with the format's default applied.
	State   string        `json:"state"`
	Body    string        `json:"body"`
	At      string        `json:"at,omitempty"`
	Replies []ThreadReply `json:"replies"`
	// Suggestion is the thread's latest ```suggestion block, absent when
	// it has none.
	Suggestion *ThreadSuggestion `json:"suggestion,omitempty"`
	// Outdated: the file no longer holds the comment's lines (placed
	// where it holds a part of them, or where the review had them).
	// OnRemovedLines: the comment is on removed (LEFT) lines, placed on
	// the line after them. Applied: the file holds the thread's
	// suggestion where the comment's lines were (placed on the block),
	// the one state an applied suggestion has everywhere.
	Outdated       bool `json:"outdated"`
	OnRemovedLines bool `json:"onRemovedLines"`
	Applied        bool `json:"applied"`
	// Location is the comment's body in the review.
	Location protocol.Location `json:"location"`
}

// ThreadReply is one reply of a ThreadData.
type ThreadReply struct {
	Author string `json:"author"`
	Body   string `json:"body"`
	At     string `json:"at,omitempty"`
}

// ThreadSuggestion is a thread's suggestion: the lines that would
// replace the comment's (none: delete them).
type ThreadSuggestion struct {
	Lines []string `json:"lines"`
}

// threadData is a placed comment's ThreadData.
func threadData(pc *placedComment, enc exchange.Encoding) ThreadData {
	r := pc.review
	t := features.ThreadOf(r.an, pc.in.Comment)
	conv := Converter{M: r.an.Doc.Mapper(), Enc: enc}
	d := ThreadData{
		Review: r.uri, ReviewName: r.name, Comment: t.Comment, Author: t.Author, State: t.State, Body: t.Body, At: t.At,
		Replies: make([]ThreadReply, len(t.Replies)), Outdated: pc.in.Outdated, OnRemovedLines: pc.in.Left, Applied: pc.in.Applied,
		Location: protocol.Location{URI: r.uri, Range: conv.Range(pc.in.Thread[0].Range)},
	}
	for i, rp := range t.Replies {
		d.Replies[i] = ThreadReply(rp)
	}
	if t.HasSuggestion {
		d.Suggestion = &ThreadSuggestion{Lines: append([]string{}, t.Suggestion...)}
	}
	return d
}

// clientNames maps the path of each source file the client knows to the
// URI it knows the file by: an open document's, else the one last
// published on, else a target's (a document just closed).
func (s *Server) clientNames(targets map[protocol.DocumentURI]bool) map[string]protocol.DocumentURI {
	names := map[string]protocol.DocumentURI{}
	add := func(u protocol.DocumentURI) {
		if p := fileOf(string(u)); p != "" {
			names[p] = u
		}
	}
	for u := range targets {
		add(u)
	}
	st := s.src
	st.mu.Lock()
	for u := range st.sent {
		add(u)
	}
	for u := range st.bufs {
		add(u)
	}
	st.mu.Unlock()
	return names
}

// uriOfFile names the source file at abs by the URI the client knows it
// by (names, from clientNames), so that what the server publishes or
// edits on it lands on the client's document: clients write one path in
// several ways (file:///c%3A/… or file:///C:/…, %2B or +). A file the
// client does not know is named by fileuri.FromPath.
func uriOfFile(names map[string]protocol.DocumentURI, abs string) protocol.DocumentURI {
	if u, ok := names[abs]; ok {
		return u
	}
	return protocol.DocumentURI(fileuri.FromPath(abs))
}

// publishSources publishes the comments on the source files: all of
// them, or the dirty source documents. A publish equal to the last one
// sent for a file is not sent again; a file that no longer has comments
// gets the empty list once.
func (s *Server) publishSources(ctx context.Context, all bool, dirty map[protocol.DocumentURI]bool) {
	bufs := s.buffers()
	v := s.view()
	defer v.release()
	reviews := v.publishedReviewsInScope(ctx)
	if ctx.Err() != nil {
		return
	}
	var targets map[protocol.DocumentURI]bool
	if !all {
		targets = dirty
	}
	placed := s.placeComments(reviews, targets)
	settings := s.currentSettings()
	caps := s.clientCaps()
	enc := s.encoding()
	severity := commentSeverity(settings.Comments.Severity)
	silenced := slices.Contains(settings.Diagnostics.Disabled, features.CodeReviewComment)

	visit := map[protocol.DocumentURI]bool{}
	for u := range placed {
		visit[u] = true
	}
	if all {
		maps.Copy(visit, s.src.known())
	} else {
		maps.Copy(visit, dirty)
	}
	// A file published on under another name (its path's, before the
	// client opened it by its own) is cleared under that one.
	now := make(map[string]protocol.DocumentURI, len(placed))
	for u := range placed {
		now[fileOf(string(u))] = u
	}
	for u := range s.src.known() {
		if n, ok := now[fileOf(string(u))]; ok && n != u {
			visit[u] = true
		}
	}
	for _, u := range slices.Sorted(maps.Keys(visit)) {
		params := protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}}
		if b := bufs[u]; b != nil && b.version > 0 {
			params.Version = uint32(b.version)
		}
		if !silenced {
			for i := range placed[u] {
				params.Diagnostics = append(params.Diagnostics, s.sourceDiagnostic(&placed[u][i], severity, caps.related, enc))
			}
		}
		s.sendSource(params)
	}
}

// sendSource sends a source's publish unless it is the one last sent.
func (s *Server) sendSource(params protocol.PublishDiagnosticsParams) {
	raw, err := encodePublish(&params)
	if err != nil {
		s.logf(protocol.MessageTypeError, "%v", err)
		return
	}
	st := s.src
	st.mu.Lock()
	last, had := st.sent[params.URI]
	switch {
	case len(params.Diagnostics) == 0 && !had:
		st.mu.Unlock()
		return
	case string(last) == string(raw):
		st.mu.Unlock()
		return
	case len(params.Diagnostics) == 0:
		delete(st.sent, params.URI)
	default:
		st.sent[params.URI] = raw
	}
	st.mu.Unlock()
	s.post(params.URI, &outgoing{body: whole(raw)})
}
