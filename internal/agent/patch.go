package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// The tools over the whole patch: lreview_fix, lreview_rebase and
// lreview_new.

// FixInput is lreview_fix's input.
type FixInput struct {
	ReviewFile
	// Write is set by lreview_fix, not by lreview_preview (not an
	// argument: a tool that writes is a tool of its own).
	Write bool `json:"-"`
}

// Fixed is one fix lreview_fix applied, or left to a person.
type Fixed struct {
	Line     int    `json:"line" jsonschema:"1-based line of the review file"`
	Code     string `json:"code"`
	Done     string `json:"done" jsonschema:"what the fix does, or why it was left"`
	Declined bool   `json:"declined,omitempty" jsonschema:"true when it needs a choice: not applied"`
}

// FixOutput is lreview_fix's output.
type FixOutput struct {
	File    string  `json:"file"`
	Fixes   []Fixed `json:"fixes"`
	Diff    string  `json:"diff" jsonschema:"the change to the review file as a unified diff; empty when nothing changes"`
	Written bool    `json:"written"`
}

func (s *server) fix(ctx context.Context, _ *mcp.CallToolRequest, in FixInput) (*mcp.CallToolResult, FixOutput, error) {
	r, release, err := s.openReview(ctx, in.File, in.Write)
	if err != nil {
		return nil, FixOutput{}, err
	}
	defer release()
	f, err := anchor.FixDocument(r.orig.Data)
	if err != nil {
		return nil, FixOutput{}, argError("file", "%s: %v", r.name, err)
	}
	fixed, applied := f.Src, f.Applied
	out := FixOutput{File: r.name, Fixes: []Fixed{}, Diff: exchange.Unified(r.name, r.orig.Data, fixed)}
	for _, a := range applied {
		out.Fixes = append(out.Fixes, Fixed{Line: a.Line, Code: a.Code, Done: a.Done, Declined: a.Declined})
	}
	if out.Written, err = s.writeChange(r, in.Write, out.Diff, fixed); err != nil {
		return nil, FixOutput{}, err
	}
	var b strings.Builder
	for _, f := range out.Fixes {
		word := ""
		if f.Declined {
			word = "not fixed: "
		}
		fmt.Fprintf(&b, "%s:%d: %s%s\n", r.name, f.Line, word, f.Done)
	}
	return textResult(b.String() + changeText(r.name, out.Diff, out.Written)), out, nil
}

// writeChange writes data over the review when the tool was asked to
// write and diff shows a change; it says whether it wrote.
func (s *server) writeChange(r *review, asked bool, diff string, data []byte) (bool, error) {
	if !asked || diff == "" {
		return false, nil
	}
	if err := s.write(r, data); err != nil {
		return false, err
	}
	return true, nil
}

// changeText ends a fix's or rebase's text: what was written, or the diff
// that write: true would write.
func changeText(name, diff string, written bool) string {
	switch {
	case diff == "":
		return "nothing to change in " + name
	case written:
		return "written: " + name
	}
	return "a preview, not written:\n" + diff
}

// RebaseInput is lreview_rebase's input.
type RebaseInput struct {
	ReviewFile
	DiffFile string `json:"diff_file,omitempty" jsonschema:"the new unified diff, a file inside the server's root (or give diff_text)"`
	DiffText string `json:"diff_text,omitempty" jsonschema:"the new unified diff itself, or one commit as git format-patch or git show prints it (or give diff_file)"`
	Write    bool   `json:"-"` // as FixInput's
}

// Move is what rebasing does to one comment.
type Move struct {
	ID       string   `json:"id"`
	From     Location `json:"from"`
	To       Location `json:"to"`
	Orphaned bool     `json:"orphaned,omitempty" jsonschema:"no clear place in the new diff: marked orphaned (a dismissed comment stays dismissed)"`
	State    string   `json:"state" jsonschema:"the comment's state afterwards"`
	Why      string   `json:"why,omitempty"`
}

// RebaseOutput is lreview_rebase's output.
type RebaseOutput struct {
	File    string `json:"file"`
	Moves   []Move `json:"moves" jsonschema:"every comment that moves or is orphaned; those that stay are left out"`
	Diff    string `json:"diff" jsonschema:"the change to the review file as a unified diff"`
	Written bool   `json:"written"`
}

func (s *server) rebase(ctx context.Context, _ *mcp.CallToolRequest, in RebaseInput) (*mcp.CallToolResult, RebaseOutput, error) {
	diff, err := s.readDiff(in.DiffFile, in.DiffText)
	if err != nil {
		return nil, RebaseOutput{}, err
	}
	r, release, err := s.openReview(ctx, in.File, in.Write)
	if err != nil {
		return nil, RebaseOutput{}, err
	}
	defer release()
	rb, err := anchor.RebaseDocument(r.doc, diff)
	if de := (*anchor.DiffError)(nil); errors.As(err, &de) {
		return nil, RebaseOutput{}, argError(diffMember(in.DiffFile), "%v", err)
	} else if err != nil {
		return nil, RebaseOutput{}, argError("file", "%s: %v", r.name, err)
	}
	out := RebaseOutput{File: r.name, Moves: []Move{}, Diff: exchange.Unified(r.name, r.orig.Data, rb.Src)}
	var b strings.Builder
	for _, m := range rb.Moves {
		out.Moves = append(out.Moves, Move{ID: m.Comment.Name(), Orphaned: m.Orphaned, State: m.State, Why: m.Why,
			From: Location{Path: m.FromPath, Side: m.FromSide.String(), StartLine: m.FromStart, EndLine: m.FromEnd},
			To:   Location{Path: m.ToPath, Side: m.ToSide.String(), StartLine: m.ToStart, EndLine: m.ToEnd}})
		b.WriteString(m.Done() + "\n")
	}
	if out.Written, err = s.writeChange(r, in.Write, out.Diff, rb.Src); err != nil {
		return nil, RebaseOutput{}, err
	}
	return textResult(b.String() + changeText(r.name, out.Diff, out.Written)), out, nil
}

func diffMember(file string) string {
	if file != "" {
		return "diff_file"
	}
	return "diff_text"
}

// reviewSuffix ends the name of every review file: editors recognise a
// review by it.
const reviewSuffix = ".review.json"

// NewInput is lreview_new's input.
type NewInput struct {
	DiffFile string `json:"diff_file,omitempty" jsonschema:"the unified diff to review, a file inside the server's root (or give diff_text)"`
	DiffText string `json:"diff_text,omitempty" jsonschema:"the unified diff itself, e.g. the output of git diff, or one commit as git format-patch or git show prints it, whose title and message then serve unless given (or give diff_file)"`
	File     string `json:"file" jsonschema:"the review file to create (*.review.json), relative to the server's root; it must not exist"`
	Title    string `json:"title,omitempty"`
	Summary  string `json:"summary,omitempty" jsonschema:"the review-level overview or verdict"`
}

// NewOutput is lreview_new's output.
type NewOutput struct {
	File  string   `json:"file"`
	Files []string `json:"files" jsonschema:"the files of the diff, to comment on"`
	Hunks int      `json:"hunks"`
}

func (s *server) newReview(_ context.Context, _ *mcp.CallToolRequest, in NewInput) (*mcp.CallToolResult, NewOutput, error) {
	rel, err := s.resolve("file", in.File)
	if err != nil {
		return nil, NewOutput{}, err
	}
	if strings.HasSuffix(in.File, reviewSuffix) && (in.DiffFile != "" || in.DiffText != "") {
		if err := s.makeDirs("file", rel); err != nil {
			return nil, NewOutput{}, err
		}
	}
	if !strings.HasSuffix(in.File, reviewSuffix) {
		return nil, NewOutput{}, argError("file", "%s does not end in %s, the name editors open a review by (the format's convention): name it %s",
			in.File, reviewSuffix, strings.TrimSuffix(in.File, ".json")+reviewSuffix)
	}
	data, err := s.readDiff(in.DiffFile, in.DiffText)
	if err != nil {
		return nil, NewOutput{}, err
	}
	text, err := anchor.NewReview(data, in.Title, in.Summary)
	if err != nil {
		return nil, NewOutput{}, argError(diffMember(in.DiffFile), "%v", err)
	}
	name := s.display(rel)
	if err := filewrite.CreateIn(s.files, rel, text); err != nil {
		switch {
		case errors.Is(err, fs.ErrExist):
			return nil, NewOutput{}, argError("file", "%s already exists: choose another name, or use lreview_rebase to put a new diff into it", name)
		case errors.Is(err, fs.ErrNotExist):
			return nil, NewOutput{}, argError("file", "the directory of %s does not exist", in.File)
		}
		return nil, NewOutput{}, s.fileError("file", in.File, err)
	}
	ix := anchor.BuildIndex(&exchange.Parse(text).Review.Patch)
	out := NewOutput{File: name, Files: []string{}}
	for _, f := range ix.Files {
		out.Files = append(out.Files, f.DisplayName())
		out.Hunks += len(f.Hunks)
	}
	return textResult(fmt.Sprintf("created %s: %s, %s (%s); no comment yet", name,
		anchor.Plural(len(out.Files), "file", "files"), anchor.Plural(out.Hunks, "hunk", "hunks"), strings.Join(out.Files, ", "))), out, nil
}
