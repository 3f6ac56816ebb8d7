package forge

import (
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// Forge is one forge as the command line offers it: one row, from which
// export's and import's flags, usage and help, and the README's tables are
// made (cmd/lreview-lsp tests the README against it). A forge is its own
// file of payloads and readers, and this row.
type Forge struct {
	Name  string // the --to and --from value
	Title string // as the README names it
	// What its review holds, as the README's table words it.
	Threads, Ranges, Sides string
	// Its states: what the import reads as open, resolved (kept active,
	// said), declined (dismissed) and stale.
	Open, Resolved, Declined, Stale string
	// ExportFlags are the export flags that only some forges take and this
	// one does: event, commit, base-sha, start-sha, head-sha, replies-to.
	ExportFlags []string
	// Replies are the --replies values it takes, its default first;
	// UnthreadedWhy says why thread is not among them.
	Replies       []string
	UnthreadedWhy string
	// Export makes the payload an export prints, with what is said on
	// standard error; an error when the forge would refuse it.
	Export func(p *Plan, opts Options) (payload any, notes []string, err error)
	// Listings are the import's listing flags, the first required.
	Listings []Listing
	// Head is what --head means for its import; "" when it takes none,
	// HeadlessWhy then saying why.
	Head, HeadlessWhy string
	// Repo says that its import maps lines through a repository (--repo).
	Repo bool
	// Import reads the listings (by flag; a missing optional one is
	// absent) and the patch into a review.
	Import func(listings map[string]Input, patch []string, opts ImportOptions) (*Imported, error)
}

// Listing is one listing flag of an import: what the forge lists there
// and how to get it.
type Listing struct {
	Flag, Help string
}

// Input is a file an import or export reads: its name for messages, its
// bytes.
type Input struct {
	Name string
	Data []byte
}

// PatchError is an import's error about the patch (not about a listing,
// whose errors name their file).
type PatchError struct{ Err error }

func (e *PatchError) Error() string { return e.Err.Error() }
func (e *PatchError) Unwrap() error { return e.Err }

// Forges returns the forges, in the order the help and the README list
// them.
func Forges() []Forge {
	return []Forge{githubForge(), gitlabForge(), gerritForge(), giteaForge(), bitbucketForge(), azureForge()}
}

// ForgeNamed returns the forge named name.
func ForgeNamed(name string) (Forge, bool) {
	for _, f := range Forges() {
		if f.Name == name {
			return f, true
		}
	}
	return Forge{}, false
}

// Options tunes every forge's payload; each forge reads the members its
// ExportFlags name.
type Options struct {
	Event    string // GitHub's, Gitea's review event; EventComment when empty
	CommitID string // GitHub's, Gitea's commit_id; left out when empty (the head)
	// GitLab: the latest merge request version's (GET
	// …/merge_requests/:iid/versions) base_commit_sha, start_commit_sha
	// and head_commit_sha.
	BaseSHA, StartSHA, HeadSHA string
	Replies                    Replies
	NoMarker                   bool
	// RepliesTo is, for Gerrit, the comments GET /changes/ID/comments
	// lists once the review is posted: the export is then the second
	// review, the replies'.
	RepliesTo *Input
}

// importWith runs a forge's import, telling the patch's errors from the
// listings'.
func importWith(im *Imported, err error) (*Imported, error) {
	if err != nil {
		return nil, &PatchError{err}
	}
	return im, nil
}

// bodyLimit is a forge's limit on one body, in characters.
type bodyLimit struct {
	forge string
	max   int
	where string // the limit's source, for the message
}

// check refuses a body over the limit, naming what carries it.
func (l bodyLimit) check(what, body string) error {
	if n := utf8.RuneCountInString(body); n > l.max {
		return fmt.Errorf("%s's body is %d characters, and %s takes at most %d (%s): shorten it", what, n, l.forge, l.max, l.where)
	}
	return nil
}

// needsBody is the error for a review event a forge takes only with a
// body, when the review has nothing to fill it with.
func needsBody(forge, event string) error {
	return fmt.Errorf("%s refuses a %s review without a body, and this one has no title, summary or comment to post: write a summary, or use --event APPROVE", forge, event)
}

// filledBody is the body an export writes for a forge that requires one
// (GitHub's and Gitea's COMMENT and REQUEST_CHANGES) when the review has
// no title or summary: what it holds, which the import knows and drops
// (isFilledSummary). Nothing is invented: the count and the event.
func filledBody(event string, comments int, marker bool) string {
	s := anchor.Plural(comments, "comment", "comments") + "."
	if event == EventRequestChanges {
		s = "Changes requested: " + s
	}
	return reviewBody("", s, marker)
}

// filledNote says on standard error that filledBody wrote the body.
func filledNote(forge, event string) string {
	return "the review has no title or summary, and " + forge + " takes a " + event + " review only with a body: its body says how many comments it carries (an import drops it)"
}

var filledSummary = regexp.MustCompile(`^(Changes requested: )?\d+ comments?\.$`)

// isFilledSummary reports whether summary is what filledBody wrote.
func isFilledSummary(summary string) bool { return filledSummary.MatchString(summary) }

// errNothingToPost is the refusal of an export with nothing in it.
var errNothingToPost = errors.New("nothing to post: every comment is left out and the review has no title or summary")
