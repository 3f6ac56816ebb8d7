// Package agent serves review exchange files to LLM agents over the Model
// Context Protocol: the agent's half of the loop whose person's half is an
// editor. Its tools read a review the way the language server does (the
// diagnostics, each comment with the lines it is anchored to) and change
// it with the edits the editor's code actions make (features), so that a
// person's layout and unknown members survive an agent's write too.
//
// Every file is addressed relative to the server's root and refused
// outside it; every write goes through filewrite, read then replaced only
// if unchanged. A tool's failure is a tool result with isError whose
// message names the argument at fault and what to do instead.
package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// DefaultAuthor signs the comments and replies an agent writes without an
// author: the spec's example calls the LLM that wrote a review "assistant".
const DefaultAuthor = "assistant"

// Instructions tell the agent the loop and the states (sent at initialize).
const Instructions = `Review exchange files (*.review.json) hold a unified diff and review comments anchored to its lines; a person answers them in their editor.
The loop: lreview_new starts a review from a diff; lreview_add_comment anchors each comment (by start_line, or by snippet: a line of the patch quoted as it is); the person edits the file; lreview_comments reads back what they did; lreview_reply answers; lreview_check confirms the file is clean.
States: active (stands, to be addressed), dismissed (a person rejected it: never act on it or raise it again, it stays dismissed), orphaned (its lines are no longer in the patch), stale (its anchor may have moved; re-anchoring pending).
When the code changes, lreview_rebase moves every comment onto the new diff; lreview_fix repairs anchoring mistakes. Both show the change first and write only with write: true.
Never edit the JSON by hand: the tools keep the person's formatting and refuse to write over a file changed since they read it (read it again, then retry).`

// Options configure a server.
type Options struct {
	// Root is the directory files are relative to; nothing outside it
	// (symbolic links resolved) is read or written. The working directory
	// when empty.
	Root string
	// Now stamps the `at` of new comments and replies; time.Now when nil.
	Now func() time.Time
	// BeforeWrite, when set, runs between reading a file and writing it
	// back: tests change the file there to see the write refused.
	BeforeWrite func(path string)
	// Version is the server version reported at initialize.
	Version string
}

// server holds what the tools share; it never changes after NewServer.
type server struct {
	root        string
	files       *os.Root // root, held open: every file is opened through it (files.go)
	now         func() time.Time
	beforeWrite func(string)
}

// NewServer returns the MCP server with every tool registered.
func NewServer(opts Options) (*mcp.Server, error) {
	root := opts.Root
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", root, unwrapPath(err))
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("root %s: not a directory", root)
	}
	files, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", root, unwrapPath(err))
	}
	s := &server{root: real, files: files, now: opts.Now, beforeWrite: opts.BeforeWrite}
	if s.now == nil {
		s.now = time.Now
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "lreview-lsp", Version: version}, &mcp.ServerOptions{Instructions: Instructions})
	s.register(srv)
	return srv, nil
}

func (s *server) register(srv *mcp.Server) {
	yes := true
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}
	additive := &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}
	rewrite := &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: new(bool)}
	setState := &mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: new(bool)}
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_check", Annotations: readOnly,
		Description: "Check a review file: its diagnostics (code, severity, message, comment id, line, the preferred fix) and counts by severity. Clean means no error."}, s.check)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_comments", Annotations: readOnly, InputSchema: inputSchema[CommentsInput](nil),
		Description: "List the comments of a review file, optionally only those of one state or path: each with its state, body, replies, the patch lines it is anchored to and whether its anchor holds (ok, drift with candidate places, orphaned with the reason). Read this after the person edited the file."}, s.comments)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_add_comment", Annotations: additive, InputSchema: inputSchema[AddCommentInput]([]string{"start_line", "end_line"}),
		Description: "Add a comment anchored to lines of the patch: by start_line (and end_line), or by snippet alone (the text of the line(s) as they appear in that file's side of the patch). Refused, with the nearest valid places, when the lines are not in the patch or the snippet does not match or is ambiguous. Returns the comment written."}, s.addComment)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_reply", Annotations: additive,
		Description: "Append a reply to a comment, stamped with the time."}, s.reply)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_set_state", Annotations: setState, InputSchema: inputSchema[SetStateInput](nil),
		Description: "Change a comment's state (active, dismissed, orphaned, stale). A comment a person dismissed stays dismissed: reply to it instead."}, s.setState)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_fix", Annotations: rewrite,
		Description: "Apply the anchoring fixes that need no choice. Without write, shows what would change (the fixes and a unified diff of the review file); with write: true, writes it."}, s.fix)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_rebase", Annotations: rewrite,
		Description: "Replace the review's patch with a newer diff (diff_file or diff_text) and move every comment by content, marking orphaned those that cannot be placed. Without write, shows the moves and a unified diff of the review file; with write: true, writes it."}, s.rebase)
	mcp.AddTool(srv, &mcp.Tool{Name: "lreview_new", Annotations: additive,
		Description: "Create a new review file around a unified diff (diff_file or diff_text), canonical, with no comment. Refused when the file exists."}, s.newReview)
}

// inputSchema is the schema AddTool would infer for T, with the values
// of side and state listed (the schema tells the agent what the handler
// accepts before it calls) and the lines named in lines at least 1.
func inputSchema[T any](lines []string) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(T), err)) // a type of this package: a test sees it
	}
	if p := s.Properties["side"]; p != nil {
		p.Enum = []any{"RIGHT", "LEFT"}
	}
	if p := s.Properties["state"]; p != nil {
		p.Enum = []any{exchange.StateActive, exchange.StateDismissed, exchange.StateOrphaned, exchange.StateStale}
	}
	one := 1.0
	for _, name := range lines {
		s.Properties[name].Minimum = &one
	}
	return s
}
