package agent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lreview_preview: what lreview_fix, lreview_rebase or
// lreview_apply_suggestion would change, written nowhere. A tool of its
// own, read-only for every call, so that a host need not ask the person's
// permission to look (a write argument made the writing tools' hints
// false for half their calls).

// PreviewInput is lreview_preview's input.
type PreviewInput struct {
	ReviewFile
	Change   string `json:"change" jsonschema:"the change to preview: fix, rebase or apply_suggestion"`
	DiffFile string `json:"diff_file,omitempty" jsonschema:"rebase: the new unified diff, a file inside the server's root (or give diff_text)"`
	DiffText string `json:"diff_text,omitempty" jsonschema:"rebase: the new unified diff itself (or give diff_file)"`
	ID       string `json:"id,omitempty" jsonschema:"apply_suggestion: the comment whose suggestion to apply"`
}

// PreviewOutput is lreview_preview's output.
type PreviewOutput struct {
	File   string  `json:"file" jsonschema:"the file the change would write: the review, or the working tree's file for apply_suggestion"`
	Change string  `json:"change"`
	Fixes  []Fixed `json:"fixes" jsonschema:"fix: the fixes, applied or left"`
	Moves  []Move  `json:"moves" jsonschema:"rebase: the comments that would move or be orphaned"`
	Diff   string  `json:"diff" jsonschema:"the change as a unified diff; empty when nothing would change"`
}

func (s *server) preview(ctx context.Context, req *mcp.CallToolRequest, in PreviewInput) (*mcp.CallToolResult, PreviewOutput, error) {
	out := PreviewOutput{Change: in.Change, Fixes: []Fixed{}, Moves: []Move{}}
	if in.Change != "rebase" && (in.DiffFile != "" || in.DiffText != "") {
		return nil, PreviewOutput{}, argError(diffMember(in.DiffFile), "only a rebase takes a diff; change is %q", in.Change)
	}
	if in.Change != "apply_suggestion" && in.ID != "" {
		return nil, PreviewOutput{}, argError("id", "only apply_suggestion takes a comment id; change is %q", in.Change)
	}
	switch in.Change {
	case "fix":
		res, fo, err := s.fix(ctx, req, FixInput{ReviewFile: in.ReviewFile})
		if err != nil {
			return nil, PreviewOutput{}, err
		}
		out.File, out.Fixes, out.Diff = fo.File, fo.Fixes, fo.Diff
		return res, out, nil
	case "rebase":
		res, ro, err := s.rebase(ctx, req, RebaseInput{ReviewFile: in.ReviewFile, DiffFile: in.DiffFile, DiffText: in.DiffText})
		if err != nil {
			return nil, PreviewOutput{}, err
		}
		out.File, out.Moves, out.Diff = ro.File, ro.Moves, ro.Diff
		return res, out, nil
	case "apply_suggestion":
		if in.ID == "" {
			return nil, PreviewOutput{}, argError("id", "missing: the comment whose suggestion to preview")
		}
		_, ao, err := s.suggestion(CommentRef{ReviewFile: in.ReviewFile, ID: in.ID})
		if err != nil {
			return nil, PreviewOutput{}, err
		}
		out.File, out.Diff = ao.Path, ao.Diff
		return textResult("a preview, not written:\n" + ao.Diff), out, nil
	}
	return nil, PreviewOutput{}, argError("change", "expected fix, rebase or apply_suggestion, got %q", in.Change)
}
