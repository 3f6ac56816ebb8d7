package forge

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// AzureThreadRec is a pull request thread as Azure DevOps lists it
// (GET …/pullRequests/{id}/threads: {"value": [...], "count": n}).
type AzureThreadRec struct {
	ID            int64               `json:"id"`
	Status        string              `json:"status"`
	ThreadContext *AzureThreadContext `json:"threadContext"`
	Comments      []AzureCommentRec   `json:"comments"`
	IsDeleted     bool                `json:"isDeleted"`
	PublishedDate string              `json:"publishedDate"`
}

// AzureCommentRec is one comment of a listed thread. commentType "system"
// is Azure DevOps' own ("X changed the status to Fixed").
type AzureCommentRec struct {
	ID              int64             `json:"id"`
	ParentCommentID int64             `json:"parentCommentId"`
	Author          *AzureIdentityRef `json:"author"`
	Content         string            `json:"content"`
	PublishedDate   string            `json:"publishedDate"`
	CommentType     string            `json:"commentType"`
	IsDeleted       bool              `json:"isDeleted"`
}

// AzureIdentityRef is a comment's author: uniqueName is the account
// (an e-mail address or DOMAIN\user), id its GUID, displayName the
// person's name, which is theirs to change and never an identity.
type AzureIdentityRef struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	UniqueName  string `json:"uniqueName"`
}

// ReadAzureThreads reads the output of
// GET https://dev.azure.com/{org}/{project}/_apis/git/repositories/{repo}/pullRequests/{id}/threads
// (az devops invoke prints it too): an object whose "value" is the
// threads, or an array of them.
func ReadAzureThreads(name string, data []byte) ([]AzureThreadRec, error) {
	return readRecords[AzureThreadRec](name, data, listing{forge: "Azure DevOps", member: "value",
		what: "the threads of GET …/pullRequests/N/threads (an object with \"value\")", required: []string{"id", "comments"}})
}

// ImportAzure makes a review exchange document from a pull request's
// threads and its diff: a thread on lines is a comment, its later
// comments its replies oldest first (Azure DevOps' own comments skipped,
// deleted ones too). The thread's status means: active, pending → active;
// fixed, closed → resolved (active, said); wontFix, byDesign → dismissed.
// The title and summary come from the latest thread on the pull request
// itself that carries the export's marker.
func ImportAzure(threads []AzureThreadRec, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "git diff of the pull request", opts)
	if err != nil {
		return nil, err
	}
	var sum summary
	for i := range threads {
		th := &threads[i]
		if th.IsDeleted {
			continue
		}
		var posts []*AzureCommentRec
		for k := range th.Comments {
			if c := &th.Comments[k]; !c.IsDeleted && c.CommentType != "system" {
				posts = append(posts, c)
			}
		}
		if len(posts) == 0 {
			continue
		}
		slices.SortStableFunc(posts, func(a, b *AzureCommentRec) int {
			return cmp.Or(cmp.Compare(azureTime(a.PublishedDate).UnixNano(), azureTime(b.PublishedDate).UnixNano()), cmp.Compare(a.ID, b.ID))
		})
		azureThread(in, &sum, th, posts)
	}
	return in.finish()
}

// azureThread imports one thread, its people's comments oldest first.
func azureThread(in *importer, sum *summary, th *AzureThreadRec, posts []*AzureCommentRec) {
	name := "thread " + strconv.FormatInt(th.ID, 10)
	first := posts[0]
	tc := th.ThreadContext
	if tc == nil {
		if !sum.offer(in, first.Content, azureTime(first.PublishedDate)) {
			in.notef("%s%s is on the pull request, not on a line: left out%s", name, azureBy(first.Author), gerritWithReplies(len(posts)-1))
		}
		return
	}
	start, end, side := tc.RightFileStart, tc.RightFileEnd, anchor.Right
	if start == nil {
		start, end, side = tc.LeftFileStart, tc.LeftFileEnd, anchor.Left
	}
	if start == nil || start.Line <= 0 {
		in.notef("%s on %q is a file comment: left out%s (a review exchange comment anchors to lines)", name, tc.FilePath, gerritWithReplies(len(posts)-1))
		return
	}
	t := &lineThread{
		fallbackID: "ado-" + strconv.FormatInt(th.ID, 10),
		first:      post{name: name, author: in.author("Azure DevOps", azureAccount(first.Author)), at: azureAt(first.PublishedDate), body: first.Content},
		path:       strings.TrimPrefix(tc.FilePath, "/"), side: side, start: start.Line, end: start.Line,
	}
	if end != nil && end.Line > start.Line {
		t.end = end.Line
	}
	for _, c := range posts[1:] {
		t.replies = append(t.replies, post{name: name + " comment " + strconv.FormatInt(c.ID, 10), author: in.author("Azure DevOps", azureAccount(c.Author)), at: azureAt(c.PublishedDate), body: c.Content})
	}
	switch th.Status {
	case "fixed", "closed":
		t.resolved = "status " + th.Status
	case "wontFix", "byDesign":
		t.dismissed = "status " + th.Status
	}
	in.addThread("Azure DevOps", t)
}

// azureTime reads Azure DevOps' times (RFC 3339, fractional seconds);
// the zero time when it does not.
func azureTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func azureAt(s string) string {
	if azureTime(s).IsZero() {
		return ""
	}
	return s
}

func azureName(a *AzureIdentityRef) string { return azureAccount(a).id }

// azureAccount is an author's identity, its uniqueName else its id, and
// the name Azure DevOps shows.
func azureAccount(a *AzureIdentityRef) account {
	switch {
	case a == nil:
		return account{}
	case a.UniqueName != "":
		return account{id: a.UniqueName}
	case a.ID != "":
		return account{id: "id " + a.ID, display: a.DisplayName}
	}
	return account{display: a.DisplayName}
}

func azureBy(a *AzureIdentityRef) string {
	if n := azureName(a); n != "" {
		return " by " + n
	}
	return ""
}
