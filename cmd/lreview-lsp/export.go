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
	"       lreview-lsp export --to gitlab --base-sha B --start-sha S --head-sha H [--replies quote|drop] [--no-marker] [--skip-unresolved] FILE"

// exportFlags are export's command line.
type exportFlags struct {
	to, event, commit, replies string
	base, start, head          string
	noMarker, skipUnresolved   bool
	set                        map[string]bool
}

func parseExportFlags(args []string, stderr io.Writer) (*exportFlags, string, bool) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &exportFlags{set: map[string]bool{}}
	fs.StringVar(&f.to, "to", "", "the forge: github or gitlab")
	fs.StringVar(&f.event, "event", forge.EventComment, "GitHub: the review's event, COMMENT, REQUEST_CHANGES or APPROVE")
	fs.StringVar(&f.commit, "commit", "", "GitHub: the commit the review is on (commit_id); default the pull request's head")
	fs.StringVar(&f.replies, "replies", "quote", "replies: quote them under the comment's body, or drop them")
	fs.BoolVar(&f.noMarker, "no-marker", false, "leave out the hidden <!-- lreview:ID --> markers")
	fs.BoolVar(&f.skipUnresolved, "skip-unresolved", false, "export the comments a forge would take and list the others")
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
	if err := f.check(); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp export: %v\n%s\n", err, exportUsage)
		return nil, "", false
	}
	return f, fs.Arg(0), true
}

// check says what is wrong with the flags' values and combination.
func (f *exportFlags) check() error {
	only := map[string][]string{"github": {"event", "commit"}, "gitlab": {"base-sha", "start-sha", "head-sha"}}
	switch f.to {
	case "github", "gitlab":
	case "":
		return errors.New("--to is required: github or gitlab")
	default:
		return fmt.Errorf("--to must be github or gitlab, got %q", f.to)
	}
	for forgeName, names := range only {
		for _, n := range names {
			if f.set[n] && forgeName != f.to {
				return fmt.Errorf("--%s is for --to %s only", n, forgeName)
			}
		}
	}
	if f.replies != "quote" && f.replies != "drop" {
		return fmt.Errorf("--replies must be quote or drop, got %q", f.replies)
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
	if f.replies == "drop" {
		return forge.DropReplies
	}
	return forge.QuoteReplies
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
	payload, err := exportPayload(f, plan)
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

// exportPayload encodes the forge's payload, or says why there is none.
func exportPayload(f *exportFlags, plan *forge.Plan) ([]byte, error) {
	var v any
	if f.to == "github" {
		rv := plan.GitHub(forge.GitHubOptions{Event: f.event, CommitID: f.commit, Replies: f.repliesMode(), NoMarker: f.noMarker})
		// GitHub's create-review: body is "Required when using
		// REQUEST_CHANGES or COMMENT for the event parameter".
		if rv.Body == "" && rv.Event != forge.EventApprove {
			return nil, fmt.Errorf("a %s review needs a body, and the review has no title or summary: write one, or use --event APPROVE", rv.Event)
		}
		v = rv
	} else {
		v = plan.GitLab(forge.GitLabOptions{BaseSHA: f.base, StartSHA: f.start, HeadSHA: f.head, Replies: f.repliesMode(), NoMarker: f.noMarker})
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
