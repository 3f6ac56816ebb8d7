// Package agent serves review exchange files to LLM agents over the Model
// Context Protocol: the agent's half of the loop whose person's half is an
// editor. Its tools read a review the way the language server does
// (through reviewfile, the same parse and check, its versions cached
// between calls: the diagnostics, each comment with the lines it is
// anchored to) and change
// it with the edits the editor's code actions make (features), so that a
// person's layout and unknown members survive an agent's write too.
//
// Every file is addressed relative to the server's root and refused
// outside it; every write goes through filewrite, read then replaced only
// if unchanged. A tool's failure is a tool result with isError whose
// message names the argument at fault and what to do instead.
package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/visual"
)

// DefaultAuthor signs the comments and replies an agent writes when
// neither --agent nor the client's name says who it is: the spec's
// example calls the LLM that wrote a review "assistant".
const DefaultAuthor = "assistant"

// maxAgentName bounds the name an agent writes as, in bytes.
const maxAgentName = 100

// Instructions tell the agent the loop and the states (sent at initialize).
const Instructions = `Review exchange files (*.review.json) hold a unified diff and review comments anchored to its lines; a person answers them in their editor.
The loop: lreview_new starts a review from a diff; lreview_add_comment anchors each comment (by start_line, or by snippet: a line of the patch quoted as it is); the person edits the file; lreview_comments reads back what they did; lreview_reply answers; lreview_check confirms the file is clean; lreview_finalize records the reviewers' verdict last.
States: active (stands, to be addressed), dismissed (a person rejected it: never act on it or raise it again, it stays dismissed), orphaned (its lines are no longer in the patch), stale (its anchor may have moved; re-anchoring pending).
The code's side: lreview_locate says where each comment's lines are in the working tree now; lreview_apply_suggestion applies a comment's suggestion block there.
When the code changes, lreview_rebase moves every comment onto the new diff; lreview_fix repairs anchoring mistakes; lreview_preview shows either change (or a suggestion's) without writing.
Lists come a page at a time: give next_cursor as cursor to read on. Parallel calls on one file are fine: the writes are queued.
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
	// Agent is who the agent writes as, and whose words alone it may
	// edit or remove: fixed for the server's life. When empty, the
	// client's name from initialize (each session's own), else
	// DefaultAuthor. Never an argument of a call: whoever could name
	// an author per call could edit a person's words.
	Agent string
}

// server holds what the tools share; it never changes after NewServer
// but for the queues, the cache and the outputs, which are safe for
// concurrent use.
type server struct {
	root        string
	files       *os.Root // root, held open: every file is opened through it (files.go)
	now         func() time.Time
	beforeWrite func(string)
	agent       string // Options.Agent
	queue       *queues
	cache       *reviewfile.Cache
	outputs     *outputMemo
	trees       *trees
	graphs      *graphs // shape.go
	// visual is the visual axis's host, kept for the session: its renders
	// are kept by their inputs (finalize.go).
	visual visual.Options
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
	s := &server{root: real, files: files, now: opts.Now, beforeWrite: opts.BeforeWrite, agent: strings.TrimSpace(opts.Agent), queue: &queues{}, cache: reviewfile.NewCache(maxCached), outputs: &outputMemo{}, trees: &trees{}, graphs: &graphs{}, visual: visual.Host()}
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

// author is who the calling agent writes as: the server's --agent, else
// the name its client gave at initialize (the session's, never a call's
// own _meta), else DefaultAuthor.
func (s *server) author(req *mcp.CallToolRequest) string {
	if s.agent != "" {
		return s.agent
	}
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			if name := strings.TrimSpace(p.ClientInfo.Name); name != "" {
				if len(name) > maxAgentName {
					name = strings.ToValidUTF8(name[:maxAgentName], "")
				}
				return name
			}
		}
	}
	return DefaultAuthor
}

// annotations says what a tool does to the files, for the host to decide
// what to ask the person: read-only tools are idempotent; none reaches
// beyond the root.
func annotations(title string, readOnly, destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, DestructiveHint: &destructive, IdempotentHint: idempotent, OpenWorldHint: new(bool)}
}

func (s *server) register(srv *mcp.Server) {
	tool := func(name, title, desc string, readOnly, destructive, idempotent bool) *mcp.Tool {
		return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: annotations(title, readOnly, destructive, idempotent)}
	}
	lines := []string{"start_line", "end_line"}
	addTool(srv, tool("lreview_check", "Check a review file",
		"Check a review file: its diagnostics (code, severity, message, comment id, line, the preferred fix), a page at a time (limit, cursor), with counts by severity over the whole file. Clean means no error.",
		true, false, true), nil, s.check)
	addTool(srv, tool("lreview_comments", "List a review's comments",
		"List the comments of a review file, a page at a time (limit, cursor), optionally only those of one state, path or id, or with problems: each with its state, body, replies, the patch lines it is anchored to and whether its anchor holds (ok, drift with candidate places, orphaned with the reason); totals over the whole file. Read this after the person edited the file.",
		true, false, true), nil, s.comments)
	addTool(srv, tool("lreview_locate", "Locate comments in the working tree",
		"For each comment, where its lines are in the working tree now (the files under the server's root, or the repository holding the review): the current line numbers and text, and whether they still hold what the review quotes. Use it to find the code each comment is about before changing it.",
		true, false, true), nil, s.locate)
	addTool(srv, tool("lreview_preview", "Preview a fix, rebase or suggestion",
		"Show what lreview_fix, lreview_rebase or lreview_apply_suggestion would change, as a unified diff, writing nothing.",
		true, false, true), nil, s.preview)
	addTool(srv, tool("lreview_add_comment", "Add a comment",
		"Add a comment anchored to lines of the patch: by start_line (and end_line), or by snippet alone (the text of the line(s) as they appear in that file's side of the patch). Refused, with the nearest valid places, when the lines are not in the patch or the snippet does not match or is ambiguous. Returns the comment written.",
		false, false, false), lines, s.addComment)
	addTool(srv, tool("lreview_reply", "Reply to a comment",
		"Append a reply to a comment, stamped with the time.",
		false, false, false), nil, s.reply)
	addTool(srv, tool("lreview_set_state", "Set a comment's state",
		"Change a comment's state (active, dismissed, orphaned, stale). A comment a person dismissed stays dismissed: reply to it instead.",
		false, true, true), nil, s.setState)
	addTool(srv, tool("lreview_edit_comment", "Edit a comment or reply",
		"Replace the body of a comment, or of one of its replies (reply: its number from 1), that author wrote (assistant by default). A person's words and a dismissed comment are not edited: reply instead.",
		false, true, true), nil, s.editComment)
	addTool(srv, tool("lreview_delete_comment", "Delete a comment or reply",
		"Remove a comment written by mistake, or one of its replies (reply: its number from 1), that author wrote (assistant by default). A comment with replies or a dismissed one is kept: the answers and the person's verdict are information; set its state or reply instead.",
		false, true, false), nil, s.deleteComment)
	addTool(srv, tool("lreview_apply_suggestion", "Apply a comment's suggestion",
		"Apply the ```suggestion block of a comment (the latest of its thread) to the working tree's file, where the comment's lines are now. Refused, saying why, when they no longer hold what the review quotes. lreview_preview shows the change first.",
		false, true, false), nil, s.applySuggestion)
	addTool(srv, tool("lreview_fix", "Fix anchoring mistakes",
		"Apply to the review file the anchoring fixes that need no choice, and say which were left. lreview_preview shows the change first.",
		false, true, true), nil, func(ctx context.Context, req *mcp.CallToolRequest, in FixInput) (*mcp.CallToolResult, FixOutput, error) {
		in.Write = true
		return s.fix(ctx, req, in)
	})
	addTool(srv, tool("lreview_rebase", "Rebase a review onto a newer diff",
		"Replace the review's patch with a newer diff (diff_file or diff_text) and move every comment by content, marking orphaned those that cannot be placed. lreview_preview shows the moves and the change first.",
		false, true, false), nil, func(ctx context.Context, req *mcp.CallToolRequest, in RebaseInput) (*mcp.CallToolResult, RebaseOutput, error) {
		in.Write = true
		return s.rebase(ctx, req, in)
	})
	addTool(srv, tool("lreview_finalize", "Finalize the review's verdict",
		"Record the reviewers' axes in the review: correctness, security and test_gap, each a state (pass, warn, fail, partial, unavailable) with a short reason; an axis left out is unavailable. A fail must name at least one active comment as its evidence. A second finalize replaces the first. Returns every axis (the contract and visual axes too) and the verdict: Ship, Hold or Block. A comment a person dismisses later turns that evidence stale, and the verdict is recomputed.",
		false, true, true), nil, s.finalize)
	addTool(srv, tool("lreview_set_cohort_summary", "Set a cohort's summary",
		"Write the Markdown summary of one cohort of the review (by its key), replacing the one before; kept in the review file under the cohort's key, and surviving a rebase.",
		false, true, true), nil, s.setCohortSummary)
	addTool(srv, tool("lreview_add_diagram", "Add a diagram to a cohort",
		"Attach a typed diagram to a cohort (by its key): a sequence {participants, messages}, an entity_relation {entities, relations} or a state_machine {states, transitions, initial}, as data, never Mermaid text. Each edge is checked against the code graph: verified, or unverified with the reason; exports draw unverified edges dashed and labelled.",
		false, false, false), nil, s.addDiagram)
	addTool(srv, tool("lreview_new", "Start a review of a diff",
		"Create a new review file around a unified diff (diff_file or diff_text), canonical, with no comment; missing directories inside the root are created. Refused when the file exists.",
		false, false, false), nil, s.newReview)
	s.registerShape(srv, tool)
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
	if p := s.Properties["change"]; p != nil {
		p.Enum = []any{"fix", "rebase", "apply_suggestion"}
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
