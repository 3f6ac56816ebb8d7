package forge

import "github.com/leanreview/lreview-lsp/internal/anchor"

// AzureThread is the body of one
// POST https://dev.azure.com/{organization}/{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/threads
// (GitPullRequestCommentThread): its comments, the first the comment and
// the others its replies, its status, and where it is.
type AzureThread struct {
	Comments      []AzureComment      `json:"comments"`
	Status        string              `json:"status,omitempty"`
	ThreadContext *AzureThreadContext `json:"threadContext,omitempty"`
}

// AzureComment is one comment of a thread. Azure DevOps numbers a
// thread's comments from 1 in order: a reply's parentCommentId is 1, the
// first comment's 0.
type AzureComment struct {
	ParentCommentID int    `json:"parentCommentId"`
	Content         string `json:"content"`
	CommentType     string `json:"commentType"`
}

// AzureThreadContext places a thread: filePath (absolute in the
// repository), and the first and last positions on the left (old) or the
// right (new) file.
type AzureThreadContext struct {
	FilePath       string         `json:"filePath"`
	LeftFileStart  *AzurePosition `json:"leftFileStart,omitempty"`
	LeftFileEnd    *AzurePosition `json:"leftFileEnd,omitempty"`
	RightFileStart *AzurePosition `json:"rightFileStart,omitempty"`
	RightFileEnd   *AzurePosition `json:"rightFileEnd,omitempty"`
}

// AzurePosition is a CommentPosition: line and offset, both 1-based.
type AzurePosition struct {
	Line   int `json:"line"`
	Offset int `json:"offset"`
}

// Azure returns the thread requests: the title and summary as a thread
// on the pull request itself first, then one active thread per comment
// spanning its whole lines, its replies as comments of the thread (real
// replies by default; quoted or dropped when opts say so).
func (p *Plan) Azure(opts Options) []AzureThread {
	out := make([]AzureThread, 0, len(p.placed)+1)
	if body := p.body(!opts.NoMarker); body != "" {
		out = append(out, AzureThread{Comments: []AzureComment{{Content: body, CommentType: "text"}}})
	}
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		start := &AzurePosition{Line: first.Number(pc.side), Offset: 1}
		end := &AzurePosition{Line: last.Number(pc.side), Offset: p.lineWidth(pc, pc.last) + 1}
		tc := &AzureThreadContext{FilePath: "/" + pc.file.DisplayName()}
		if pc.side == anchor.Left {
			tc.LeftFileStart, tc.LeftFileEnd = start, end
		} else {
			tc.RightFileStart, tc.RightFileEnd = start, end
		}
		th := AzureThread{
			Comments:      []AzureComment{{Content: commentBody(pc.c, opts.Replies, !opts.NoMarker), CommentType: "text"}},
			Status:        "active",
			ThreadContext: tc,
		}
		if opts.Replies == ThreadReplies {
			for _, r := range pc.c.Replies {
				th.Comments = append(th.Comments, AzureComment{ParentCommentID: 1, Content: replyBody(r, !opts.NoMarker), CommentType: "text"})
			}
		}
		out = append(out, th)
	}
	return out
}

func azureForge() Forge {
	return Forge{
		Name: "azure", Title: "Azure DevOps",
		Threads: "real replies (the thread's comments)", Ranges: "yes (whole lines)", Sides: "`leftFile…`, `rightFile…`",
		Open: "`active`, `pending`, `unknown`", Resolved: "`fixed`, `closed`", Declined: "`wontFix`, `byDesign`", Stale: "— (it moves threads itself)",
		Replies: []string{"thread", "quote", "drop"},
		Export: func(p *Plan, opts Options) (any, []string, error) {
			ts := p.Azure(opts)
			if len(ts) == 0 {
				return nil, nil, errNothingToPost
			}
			return ts, nil, nil
		},
		Listings:    []Listing{{"threads", "GET …/pullRequests/N/threads (- for standard input)"}},
		HeadlessWhy: "Azure DevOps moves its threads to the latest iteration itself",
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			ts, err := ReadAzureThreads(l["threads"].Name, l["threads"].Data)
			if err != nil {
				return nil, err
			}
			return importWith(ImportAzure(ts, patch, opts))
		},
	}
}
