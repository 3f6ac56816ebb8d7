package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

const exportUsage = "usage: lreview-lsp export --to github [--event COMMENT|REQUEST_CHANGES|APPROVE] [--commit SHA] [--replies quote|drop] [--no-marker] [--skip-unresolved] FILE\n" +
	"       lreview-lsp export --to gitlab --base-sha B --start-sha S --head-sha H [--replies quote|drop] [--no-marker] [--skip-unresolved] FILE\n" +
	"       lreview-lsp export --to gitea [--event COMMENT|REQUEST_CHANGES|APPROVE] [--commit SHA] [--replies quote|drop] [--no-marker] [--skip-unresolved] FILE\n" +
	"       lreview-lsp export --to gerrit [--replies quote|drop|thread] [--replies-to POSTED.json] [--no-marker] [--skip-unresolved] FILE\n" +
	"       lreview-lsp export --to bitbucket|azure [--replies thread|quote|drop] [--no-marker] [--skip-unresolved] FILE"

// exportFlags are export's command line.
type exportFlags struct {
	to, event, commit, replies string
	repliesTo                  string
	base, start, head          string
	noMarker, skipUnresolved   bool
	cohorts                    bool // the cohorts section (cohorts.go)
	set                        map[string]bool
}

func parseExportFlags(args []string, stderr io.Writer) (*exportFlags, string, bool) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &exportFlags{set: map[string]bool{}}
	fs.StringVar(&f.to, "to", "", "the forge: "+forgeNames)
	fs.StringVar(&f.event, "event", forge.EventComment, "GitHub, Gitea: the review's event, COMMENT, REQUEST_CHANGES or APPROVE")
	fs.StringVar(&f.commit, "commit", "", "GitHub, Gitea: the commit the review is on (commit_id); default the pull request's head")
	fs.StringVar(&f.replies, "replies", "", "replies: thread them as real replies (Bitbucket, Azure DevOps: the default), quote them under the comment's body (the default elsewhere), or drop them")
	fs.StringVar(&f.repliesTo, "replies-to", "", "Gerrit: the comments GET /changes/ID/comments lists once the review is posted; prints the second review, the replies in_reply_to their comments")
	fs.BoolVar(&f.noMarker, "no-marker", false, "leave out the hidden <!-- lreview:ID --> markers")
	fs.BoolVar(&f.skipUnresolved, "skip-unresolved", false, "export the comments a forge would take and list the others")
	fs.BoolVar(&f.cohorts, "cohorts", false, "list the review's cohorts, riskiest first with their reasons, in the summary body (from the working tree above FILE)")
	fs.StringVar(&f.base, "base-sha", "", "GitLab: the merge request version's base_commit_sha")
	fs.StringVar(&f.start, "start-sha", "", "GitLab: its start_commit_sha")
	fs.StringVar(&f.head, "head-sha", "", "GitLab: its head_commit_sha")
	if err := fs.Parse(args); err != nil {
		return nil, "", false
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "lreview-lsp export: name one FILE (or - for standard input)\n%s\n", exportUsage)
		return nil, "", false
	}
	f.event = strings.ToUpper(f.event)
	if f.repliesTo == "-" && fs.Arg(0) == "-" {
		fmt.Fprintf(stderr, "lreview-lsp export: only one of FILE and --replies-to may be - (standard input)\n%s\n", exportUsage)
		return nil, "", false
	}
	if err := f.check(); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %v\n%s\n", err, exportUsage)
		return nil, "", false
	}
	return f, fs.Arg(0), true
}

// check says what is wrong with the flags' values and combination.
func (f *exportFlags) check() error {
	only := map[string][]string{"event": {"github", "gitea"}, "commit": {"github", "gitea"},
		"base-sha": {"gitlab"}, "start-sha": {"gitlab"}, "head-sha": {"gitlab"}}
	switch f.to {
	case "github", "gitlab", "gerrit", "gitea", "bitbucket", "azure":
	case "":
		return errors.New("--to is required: " + forgeNames)
	default:
		return fmt.Errorf("--to must be %s, got %q", forgeNames, f.to)
	}
	for _, n := range []string{"event", "commit", "base-sha", "start-sha", "head-sha"} {
		if f.set[n] && !slices.Contains(only[n], f.to) {
			return fmt.Errorf("--%s is for --to %s only", n, strings.Join(only[n], " or "))
		}
	}
	threads := f.to == "bitbucket" || f.to == "azure" || f.to == "gerrit"
	if f.set["replies-to"] {
		switch {
		case f.to != "gerrit":
			return errors.New("--replies-to is for --to gerrit only")
		case f.replies != "" && f.replies != "thread":
			return fmt.Errorf("--replies-to posts the replies as Gerrit's own: --replies %s says otherwise", f.replies)
		}
		f.replies = "thread"
	}
	switch {
	case f.replies == "" && threads && f.to != "gerrit":
		f.replies = "thread"
	case f.replies == "":
		f.replies = "quote"
	case f.replies == "thread" && !threads:
		return fmt.Errorf("--replies thread is for --to bitbucket, azure or gerrit: %s", unthreadedWhy(f.to))
	case f.replies != "quote" && f.replies != "drop" && f.replies != "thread":
		return fmt.Errorf("--replies must be thread, quote or drop, got %q", f.replies)
	}
	switch f.event {
	case forge.EventComment, forge.EventRequestChanges, forge.EventApprove:
	default:
		return fmt.Errorf("--event must be COMMENT, REQUEST_CHANGES or APPROVE, got %q", f.event)
	}
	if f.to == "gitlab" {
		for _, n := range []string{"base-sha", "start-sha", "head-sha"} {
			if !f.set[n] {
				return fmt.Errorf("--to gitlab needs --base-sha, --start-sha and --head-sha (GitLab's merge request versions); --%s is missing", n)
			}
		}
	}
	return nil
}

func (f *exportFlags) repliesMode() forge.Replies {
	switch f.replies {
	case "drop":
		return forge.DropReplies
	case "thread":
		return forge.ThreadReplies
	}
	return forge.QuoteReplies
}

// unthreadedWhy says why a forge's replies cannot be posted as real
// replies from what an export prints.
func unthreadedWhy(to string) string {
	switch to {
	case "gerrit":
		return "Gerrit's in_reply_to names the id Gerrit gives a comment once posted, which a review's request cannot know (--replies thread, then --replies-to, posts them as Gerrit's own in a second request)"
	case "gitea":
		return "Gitea's API takes no reply to a review comment"
	}
	return "the review request takes no reply"
}

func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, name, ok := parseExportFlags(args, stderr)
	if !ok {
		return 2
	}
	src, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	doc := exchange.Parse(src)
	plan, err := forge.NewPlan(doc)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %s: %v\n", displayName(name), err)
		return 1
	}
	plan.Verdict = exportVerdict(name, plan)
	if f.cohorts {
		plan.Cohorts = exportCohorts(name, plan.Doc)
	}
	reportPlan(stderr, displayName(name), doc.Mapper(), plan, f.skipUnresolved)
	if n := len(plan.Problems); n > 0 && !f.skipUnresolved {
		them := "them"
		if n == 1 {
			them = "it"
		}
		fmt.Fprintf(stderr, "lreview-lsp export: %s: %s the forge would refuse; nothing written (fix %s, or --skip-unresolved exports the rest)\n",
			displayName(name), anchor.Plural(n, "active comment", "active comments"), them)
		return 1
	}
	payload, err := exportPayload(f, plan, stdin, stderr, displayName(name))
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %s: %v\n", displayName(name), err)
		return 1
	}
	if _, err := stdout.Write(payload); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	return 0
}

// reportPlan writes one line per comment left out or refused, in the
// order of the document.
func reportPlan(stderr io.Writer, name string, m *exchange.Mapper, plan *forge.Plan, skipping bool) {
	type note struct {
		offset int
		text   string
	}
	var notes []note
	for _, l := range plan.Left {
		line, _ := m.LineCol(l.Offset)
		notes = append(notes, note{l.Offset, fmt.Sprintf("%s:%d: left out %s: %s", name, line, l.Comment, l.Why)})
	}
	for _, p := range plan.Problems {
		line, col := m.LineCol(p.Offset)
		left, fix := "", ""
		if skipping {
			left = "left out "
		}
		if p.Hint != "" {
			fix = "; fix: " + p.Hint
		}
		notes = append(notes, note{p.Offset, fmt.Sprintf("%s:%d:%d: %s%s: %s [%s]%s", name, line, col, left, p.Comment, p.Message, p.Code, fix)})
	}
	slices.SortStableFunc(notes, func(a, b note) int { return cmp.Compare(a.offset, b.offset) })
	for _, n := range notes {
		fmt.Fprintln(stderr, n.text)
	}
}

// exportPayload encodes the forge's payload, or says why there is none;
// what the export had to narrow to fit the forge is said on stderr.
func exportPayload(f *exportFlags, plan *forge.Plan, stdin io.Reader, stderr io.Writer, name string) ([]byte, error) {
	var v any
	opts := forge.Options{Event: f.event, CommitID: f.commit, Replies: f.repliesMode(), NoMarker: f.noMarker}
	switch f.to {
	case "github":
		rv := plan.GitHub(forge.GitHubOptions{Event: f.event, CommitID: f.commit, Replies: f.repliesMode(), NoMarker: f.noMarker})
		// GitHub's create-review: body is "Required when using
		// REQUEST_CHANGES or COMMENT for the event parameter".
		if rv.Body == "" && rv.Event != forge.EventApprove {
			return nil, fmt.Errorf("a %s review needs a body, and the review has no title or summary: write one, or use --event APPROVE", rv.Event)
		}
		v = rv
	case "gitlab":
		v = plan.GitLab(forge.GitLabOptions{BaseSHA: f.base, StartSHA: f.start, HeadSHA: f.head, Replies: f.repliesMode(), NoMarker: f.noMarker})
	case "gerrit":
		if f.repliesTo == "" {
			v = plan.Gerrit(opts)
			break
		}
		rv, err := gerritReplies(f, plan, stdin)
		if err != nil {
			return nil, err
		}
		v = rv
	case "gitea":
		rv, narrowed := plan.Gitea(opts)
		for _, n := range narrowed {
			fmt.Fprintf(stderr, "%s: %s: %s\n", name, n.Comment, n.Why)
		}
		v = rv
	case "bitbucket":
		v = plan.Bitbucket(opts)
	case "azure":
		v = plan.Azure(opts)
	}
	if f.to == "gerrit" && f.replies == "quote" && plan.HasReplies() {
		fmt.Fprintf(stderr, "%s: replies quoted under their comments: %s\n", name, unthreadedWhy(f.to))
	}
	if f.to == "gerrit" && f.replies == "thread" && f.repliesTo == "" && plan.HasReplies() {
		fmt.Fprintf(stderr, "%s: the replies are not in this review: once it is posted, export --to gerrit --replies-to with the comments Gerrit lists prints them\n", name)
	}
	if f.to == "bitbucket" && f.replies == "thread" && plan.HasReplies() {
		fmt.Fprintf(stderr, "%s: each reply's parent.id is 0: set it to the id Bitbucket answers for the comment before it (the README's loop does)\n", name)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// gerritReplies reads the comments Gerrit lists once the review is
// posted and makes the second review, the replies'.
func gerritReplies(f *exportFlags, plan *forge.Plan, stdin io.Reader) (forge.GerritReview, error) {
	data, err := readInput(f.repliesTo, stdin)
	if err != nil {
		return forge.GerritReview{}, err
	}
	posted, err := forge.ReadGerritComments(displayName(f.repliesTo), data)
	if err != nil {
		return forge.GerritReview{}, err
	}
	rv, missing := plan.GerritReplies(posted, f.noMarker)
	if len(missing) > 0 {
		return forge.GerritReview{}, fmt.Errorf("%s: no posted comment carries the marker of %s: post the review first (export --to gerrit --replies thread), with its markers",
			displayName(f.repliesTo), strings.Join(missing, ", "))
	}
	return rv, nil
}
