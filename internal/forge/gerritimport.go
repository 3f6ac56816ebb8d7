package forge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// GerritCommentInfo is a published comment as
// GET /changes/{change-id}/comments lists it (CommentInfo), under its
// file's path: the members an import reads.
type GerritCommentInfo struct {
	Path       string         `json:"-"` // the key it is listed under
	ID         string         `json:"id"`
	PatchSet   int            `json:"patch_set"`
	CommitID   string         `json:"commit_id"`
	Side       string         `json:"side"`
	Line       int            `json:"line"`
	Range      *GerritRange   `json:"range"`
	InReplyTo  string         `json:"in_reply_to"`
	Message    string         `json:"message"`
	Updated    string         `json:"updated"`
	Author     *GerritAccount `json:"author"`
	Unresolved *bool          `json:"unresolved"`
}

// GerritAccount is an AccountInfo: the members that name a person.
type GerritAccount struct {
	AccountID int    `json:"_account_id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	Username  string `json:"username"`
}

// GerritMessage is a ChangeMessageInfo, as GET /changes/{change-id}/messages
// lists it: where a review's message goes.
type GerritMessage struct {
	ID      string         `json:"id"`
	Author  *GerritAccount `json:"author"`
	Date    string         `json:"date"`
	Message string         `json:"message"`
}

const gerritCommentsWhat = "the comments of GET /changes/ID/comments (a JSON object: path → CommentInfo array)"

// ReadGerritComments reads the output of GET /changes/{id}/comments as
// curl prints it (the )]}' line first): an object mapping each path to
// its comments. Paths come sorted, each one's comments as listed.
func ReadGerritComments(name string, data []byte) ([]GerritCommentInfo, error) {
	data = withoutXSSI(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s is empty; expected %s", name, gerritCommentsWhat)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []GerritCommentInfo
	for n := 1; ; n++ {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, syntaxError(name, data, start, err)
		}
		var byPath map[string][]json.RawMessage
		if err := json.Unmarshal(raw, &byPath); err != nil || byPath == nil {
			return nil, fmt.Errorf("%s: value %d is %s; expected %s", name, n, jsonKind(raw), gerritCommentsWhat)
		}
		paths := make([]string, 0, len(byPath))
		for p := range byPath {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			if byPath[p] == nil {
				return nil, fmt.Errorf("%s: value %d: %q is null; expected its CommentInfo array: %s", name, n, p, gerritCommentsWhat)
			}
			for k, e := range byPath[p] {
				if msg := objectProblem(e, []string{"id", "message"}); msg != "" {
					return nil, fmt.Errorf("%s: %q comment %d %s a CommentInfo", name, p, k+1, msg)
				}
				var c GerritCommentInfo
				if err := json.Unmarshal(e, &c); err != nil {
					return nil, fmt.Errorf("%s: %q comment %d: %s", name, p, k+1, memberProblem(err))
				}
				c.Path = p
				out = append(out, c)
			}
		}
	}
}

// ReadGerritMessages reads the output of GET /changes/{id}/messages.
func ReadGerritMessages(name string, data []byte) ([]GerritMessage, error) {
	return readRecords[GerritMessage](name, data, listing{forge: "Gerrit",
		what: "the change messages of GET /changes/ID/messages", required: []string{"id", "message"}})
}

// Gerrit's paths that are no file of the patch.
const (
	gerritPatchsetLevel = "/PATCHSET_LEVEL"
	gerritCommitMsg     = "/COMMIT_MSG"
	gerritMergeList     = "/MERGE_LIST"
)

// ImportGerrit makes a review exchange document from a change's comments,
// its messages (nil: no title or summary) and its diff: one comment per
// thread (in_reply_to), its replies oldest first. opts.Head is the
// current patch set (its number or commit): a thread on another is stale.
// A thread's resolution is its latest comment's unresolved.
func ImportGerrit(comments []GerritCommentInfo, messages []GerritMessage, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "git diff of the change's parent and revision", opts)
	if err != nil {
		return nil, err
	}
	var sum summary
	for i := range messages {
		m := &messages[i]
		sum.offer(in, gerritMessageText(m.Message), gerritTime(m.Date))
	}
	earlier := func(i, j int) bool {
		a, b := &comments[i], &comments[j]
		return cmp.Or(cmp.Compare(a.Updated, b.Updated), cmp.Compare(a.ID, b.ID)) < 0
	}
	l := linkThreads(len(comments), func(i int) string { return comments[i].ID },
		func(i int) (string, bool) { return comments[i].InReplyTo, comments[i].InReplyTo != "" }, earlier)
	for _, i := range l.orphans {
		in.notef("comment %s replies to comment %s, which is not in the comments: imported as a thread of its own", comments[i].ID, comments[i].InReplyTo)
	}
	for _, cycle := range l.cycles {
		names := make([]string, len(cycle))
		for k, i := range cycle {
			names[k] = "comment " + comments[i].ID
		}
		in.notef("%s", cycleNote("in_reply_to", names))
	}
	roots, replies := groupThreads(len(comments), l.root, earlier)
	for _, r := range roots {
		gerritThread(in, &sum, comments, r, replies[r], opts.Head)
	}
	return in.finish()
}

// groupThreads returns the first posts in order of time and each one's
// replies in order of time.
func groupThreads(n int, root []int, earlier func(i, j int) bool) ([]int, map[int][]int) {
	byTime := make([]int, n)
	for i := range byTime {
		byTime[i] = i
	}
	slices.SortStableFunc(byTime, func(i, j int) int {
		switch {
		case earlier(i, j):
			return -1
		case earlier(j, i):
			return 1
		}
		return 0
	})
	var roots []int
	replies := map[int][]int{}
	for _, i := range byTime {
		if root[i] == i {
			roots = append(roots, i)
		} else {
			replies[root[i]] = append(replies[root[i]], i)
		}
	}
	return roots, replies
}

// gerritThread imports the thread that comment r starts.
func gerritThread(in *importer, sum *summary, comments []GerritCommentInfo, r int, replies []int, head string) {
	c := &comments[r]
	name := "comment " + c.ID
	switch {
	case c.Path == gerritPatchsetLevel:
		if !sum.offer(in, c.Message, gerritTime(c.Updated)) {
			in.notef("%s%s is on the patch set, not on a line: left out%s", name, gerritBy(c.Author), gerritWithReplies(len(replies)))
		}
		return
	case c.Path == gerritCommitMsg || c.Path == gerritMergeList:
		in.notef("%s is on %s, which is not in the patch: left out%s", name, c.Path, gerritWithReplies(len(replies)))
		return
	case c.Line == 0 && c.Range == nil:
		in.notef("%s on %q is a file comment: left out%s (a review exchange comment anchors to lines)", name, c.Path, gerritWithReplies(len(replies)))
		return
	}
	t := &lineThread{
		fallbackID: "gerrit-" + c.ID,
		first:      post{name: name, author: in.author("Gerrit", gerritAccount(c.Author)), at: rfc3339OrEmpty(gerritTime(c.Updated)), body: c.Message},
		path:       c.Path, side: anchor.Right, start: c.Line, end: c.Line,
	}
	if c.Side == gerritParent {
		t.side = anchor.Left
	}
	if c.Range != nil && c.Range.StartLine > 0 && c.Range.StartLine <= c.Range.EndLine {
		t.start, t.end = c.Range.StartLine, c.Range.EndLine
	}
	last := c
	for _, i := range replies {
		rc := &comments[i]
		t.replies = append(t.replies, post{name: "comment " + rc.ID, author: in.author("Gerrit", gerritAccount(rc.Author)), at: rfc3339OrEmpty(gerritTime(rc.Updated)), body: rc.Message})
		last = rc
	}
	if last.Unresolved != nil && !*last.Unresolved {
		t.resolved = "resolved"
	}
	if head != "" && strconv.Itoa(c.PatchSet) != head && c.CommitID != head {
		t.stale = fmt.Sprintf("on patch set %d, not %s", c.PatchSet, head)
	}
	in.addThread("Gerrit", t)
}

// gerritMessageText is a change message's text without the lines Gerrit
// writes before the review's message: "Patch Set N: votes" and "(N
// comments)".
func gerritMessageText(m string) string {
	first, rest, _ := strings.Cut(m, "\n")
	if !strings.HasPrefix(first, "Patch Set ") {
		return m
	}
	rest = strings.TrimLeft(rest, "\n")
	if p, after, ok := strings.Cut(rest, "\n"); ok && strings.HasPrefix(p, "(") && (strings.HasSuffix(p, " comment)") || strings.HasSuffix(p, " comments)")) {
		rest = strings.TrimLeft(after, "\n")
	}
	return rest
}

// gerritTime reads Gerrit's timestamps, "2013-02-26 15:40:43.986000000"
// in UTC; the zero time when it does not.
func gerritTime(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05.999999999", s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func rfc3339OrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return rfc3339(t)
}

// gerritName names an account by its stable fields: its username, else
// its number. Its name and e-mail address are the person's to change, and
// anyone may call themselves "hduran": never an identity (gerritAccount
// keeps the name to show).
func gerritName(a *GerritAccount) string {
	return gerritAccount(a).id
}

// gerritAccount is an account's identity and the name Gerrit shows.
func gerritAccount(a *GerritAccount) account {
	if a == nil {
		return account{}
	}
	if a.Username != "" {
		return account{id: a.Username}
	}
	if a.AccountID != 0 {
		return account{id: "account " + strconv.Itoa(a.AccountID), display: cmp.Or(a.Name, a.Email)}
	}
	return account{display: cmp.Or(a.Name, a.Email)}
}

func gerritBy(a *GerritAccount) string {
	if n := gerritName(a); n != "" {
		return " by " + n
	}
	return ""
}

func gerritWithReplies(n int) string {
	if n == 0 {
		return ""
	}
	return ", with its " + anchor.Plural(n, "reply", "replies")
}
