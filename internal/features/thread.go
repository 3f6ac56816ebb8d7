package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// A comment's thread in words, for the clients that draw threads
// themselves (VS Code's comment threads, Neovim's float and quickfix
// list): what the review says, not a sentence made of it, so that no
// client parses a message or a hover to find the body again.

// Thread is comment ci's thread as the review holds it; State is the
// state with the format's default applied.
type Thread struct {
	// Comment is the comment's name ("c1", or "#3" without an id).
	Comment                 string
	Author, State, Body, At string
	Replies                 []ThreadReply
	// Suggestion is the thread's latest ```suggestion block, the lines
	// it would put in place of the comment's; HasSuggestion tells an
	// empty block (delete the lines) from none.
	Suggestion    []string
	HasSuggestion bool
}

// ThreadReply is one reply of a Thread; replies the review holds as
// something else than an object are left out.
type ThreadReply struct {
	Author, Body, At string
}

// ThreadOf is comment ci's thread.
func ThreadOf(an *anchor.Analysis, ci int) Thread {
	c := an.Doc.Review.Comments[ci]
	t := Thread{Comment: c.Name(), Author: c.Author, State: c.StateNorm(), Body: c.Body, At: c.At, Replies: []ThreadReply{}}
	for _, rp := range c.Replies {
		if rp == nil {
			continue
		}
		t.Replies = append(t.Replies, ThreadReply{Author: rp.Author, Body: rp.Body, At: rp.At})
	}
	t.Suggestion, t.HasSuggestion = threadSuggestion(c)
	return t
}
