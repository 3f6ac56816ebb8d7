package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/diagram"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

// exportFlags are export's command line.
type exportFlags struct {
	to, event, commit, replies string
	repliesTo                  string
	base, start, head, repo    string
	noMarker, skipUnresolved   bool
	cohorts                    bool // the cohorts section (cohorts.go)
	set                        map[string]bool
	forge                      forge.Forge
}

// exportOnly are the export flags some forges take and others refuse
// (forge.Forge.ExportFlags).
var exportOnly = []string{"event", "commit", "base-sha", "start-sha", "head-sha", "replies-to"}

func parseExportFlags(args []string, stderr io.Writer) (*exportFlags, string, bool) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &exportFlags{set: map[string]bool{}}
	fs.StringVar(&f.to, "to", "", "the forge: "+forgeList(" or "))
	fs.StringVar(&f.event, "event", forge.EventComment, forgesTaking("event")+": the review's event, COMMENT, REQUEST_CHANGES or APPROVE")
	fs.StringVar(&f.commit, "commit", "", forgesTaking("commit")+": the commit the review is on (commit_id, the whole SHA); default the pull request's head")
	fs.StringVar(&f.replies, "replies", "", "replies: thread them as real replies (the default where the forge threads them), quote them under the comment's body (the default elsewhere), or drop them")
	fs.StringVar(&f.repliesTo, "replies-to", "", forgesTaking("replies-to")+": the comments GET /changes/ID/comments lists once the review is posted; prints the second review, the replies in_reply_to their comments")
	fs.BoolVar(&f.noMarker, "no-marker", false, "leave out the hidden <!-- lreview:ID --> markers")
	fs.BoolVar(&f.skipUnresolved, "skip-unresolved", false, "export the comments a forge would take and list the others")
	fs.BoolVar(&f.cohorts, "cohorts", true, "list the review's cohorts, riskiest first with their reasons, in the summary body (from the working tree above FILE) when it has more than one; --cohorts=false leaves them out, but for the cohorts' notes (summaries, diagrams)")
	fs.StringVar(&f.base, "base-sha", "", forgesTaking("base-sha")+": the merge request version's base_commit_sha")
	fs.StringVar(&f.start, "start-sha", "", forgesTaking("start-sha")+": its start_commit_sha")
	fs.StringVar(&f.head, "head-sha", "", forgesTaking("head-sha")+": its head_commit_sha")
	fs.StringVar(&f.repo, "repo", "", "a clone of the repository: warn when the commit the review is posted on (--commit, --head-sha) is not in it, or is not the patch's head")
	if err := fs.Parse(args); err != nil {
		return nil, "", false
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "lreview-lsp export: name one FILE (or - for standard input)\n%s\n", exportUsage())
		return nil, "", false
	}
	f.event = strings.ToUpper(f.event)
	if f.repliesTo == "-" && fs.Arg(0) == "-" {
		fmt.Fprintf(stderr, "lreview-lsp export: only one of FILE and --replies-to may be - (standard input)\n%s\n", exportUsage())
		return nil, "", false
	}
	if err := f.check(); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %v\n%s\n", err, exportUsage())
		return nil, "", false
	}
	return f, fs.Arg(0), true
}

// check says what is wrong with the flags' values and combination.
func (f *exportFlags) check() error {
	fg, ok := forge.ForgeNamed(f.to)
	switch {
	case f.to == "":
		return errors.New("--to is required: " + forgeList(" or "))
	case !ok:
		return fmt.Errorf("--to must be %s, got %q", forgeList(" or "), f.to)
	}
	f.forge = fg
	for _, n := range exportOnly {
		if f.set[n] && !slices.Contains(fg.ExportFlags, n) {
			return fmt.Errorf("--%s is for --to %s only", n, forgesTaking(n))
		}
	}
	if f.set["replies-to"] {
		if f.replies != "" && f.replies != "thread" {
			return fmt.Errorf("--replies-to posts the replies as Gerrit's own: --replies %s says otherwise", f.replies)
		}
		f.replies = "thread"
	}
	switch {
	case f.replies == "":
		f.replies = fg.Replies[0]
	case f.replies == "thread" && !slices.Contains(fg.Replies, "thread"):
		return fmt.Errorf("--replies thread is for --to %s: %s", forgesWithReplies("thread"), fg.UnthreadedWhy)
	case !slices.Contains([]string{"thread", "quote", "drop"}, f.replies):
		return fmt.Errorf("--replies must be thread, quote or drop, got %q", f.replies)
	}
	switch f.event {
	case forge.EventComment, forge.EventRequestChanges, forge.EventApprove:
	default:
		return fmt.Errorf("--event must be COMMENT, REQUEST_CHANGES or APPROVE, got %q", f.event)
	}
	if f.set["commit"] && !wholeSHA.MatchString(f.commit) {
		// A short or symbolic name is no commit_id: Gitea answers 500
		// and leaves a pending review behind.
		return fmt.Errorf("--commit must be a commit's whole SHA (40 or 64 hex digits), got %q: git rev-parse gives it", f.commit)
	}
	if slices.Contains(fg.ExportFlags, "head-sha") {
		for _, n := range []string{"base-sha", "start-sha", "head-sha"} {
			if !f.set[n] {
				return fmt.Errorf("--to %s needs --base-sha, --start-sha and --head-sha (GitLab's merge request versions); --%s is missing", f.to, n)
			}
		}
	}
	return nil
}

// wholeSHA is a commit's whole name, SHA-1 or SHA-256.
var wholeSHA = regexp.MustCompile(`^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$`)

func (f *exportFlags) options() forge.Options {
	o := forge.Options{Event: f.event, CommitID: f.commit, BaseSHA: f.base, StartSHA: f.start, HeadSHA: f.head, NoMarker: f.noMarker}
	switch f.replies {
	case "drop":
		o.Replies = forge.DropReplies
	case "thread":
		o.Replies = forge.ThreadReplies
	default:
		o.Replies = forge.QuoteReplies
	}
	return o
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
	notes, _, err := diagram.ReadNotes(plan.Doc)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %s: %v; the cohorts' notes are left out\n", displayName(name), err)
	}
	if f.cohorts || len(notes) > 0 {
		plan.Cohorts = exportCohorts(name, plan.Analysis, notes, f.cohorts)
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
	opts := f.options()
	if f.repliesTo != "" {
		data, err := readInput(f.repliesTo, stdin)
		if err != nil {
			return nil, err
		}
		opts.RepliesTo = &forge.Input{Name: displayName(f.repliesTo), Data: data}
	}
	v, notes, err := f.forge.Export(plan, opts)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "%s: %s\n", name, n)
	}
	if c := cmp.Or(f.commit, f.head); f.repo != "" && c != "" {
		p := &plan.Doc.Review.Patch
		lines := func(yield func(string) bool) {
			for i := range p.LineCount() {
				if !yield(p.LineText(i)) {
					return
				}
			}
		}
		for _, w := range (gitRepo{f.repo}).commitWarnings(c, lines) {
			fmt.Fprintf(stderr, "%s: warning: %s\n", name, w)
		}
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
