package features

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The contract axis in the review (internal/contract): each breaking
// change of an OpenAPI description the patch changes is a diagnostic on
// the line that makes it, the others hints; the summary lens reads the
// axis and the verdict; "Approve this breaking change" and "Reject this
// breaking change" write the decision as a comment on that line.

// Contract runs the axis on the review, reading the descriptions' files
// from t (nil: the patch alone), within the default budget, until ctx
// ends. A review that changes no description pays one look at its file
// names.
func Contract(ctx context.Context, an *anchor.Analysis, t *worktree.Tree, c *contract.Cache) *contract.Result {
	return contract.Evaluate(ctx, an, contract.Options{Tree: t, Cache: c})
}

// ContractDiagnostics places the axis's findings in the review: breaking
// changes (errors while undecided or rejected, warnings once approved or
// when the comparison is derived), the other changes as hints, stale
// decisions on their comment's body, files not compared on their header.
func ContractDiagnostics(an *anchor.Analysis, res *contract.Result) []exchange.Diagnostic {
	if !res.Applies() {
		return nil
	}
	var out []exchange.Diagnostic
	for _, f := range res.Files {
		if !f.Compared {
			out = append(out, exchange.Diagnostic{
				Range: headerRange(an, f.Diff), Severity: exchange.SeverityWarning, Code: contract.CodeUnavailable,
				Message: fmt.Sprintf("the contract of %s was not compared: %s; the verdict cannot pass without it", f.Path, f.Reason),
			})
		}
	}
	for i := range res.Findings {
		out = append(out, findingDiagnostic(an, res, i))
	}
	for _, ci := range res.Stale {
		c := an.Doc.Review.Comments[ci]
		_, summary, _ := contract.ParseDecision(c.Body)
		rg := commentAnchorRange(c)
		if n := c.Member("body"); n != nil {
			rg = exchange.NodeRange(n)
		}
		out = append(out, exchange.Diagnostic{
			Range: rg, Severity: exchange.SeverityWarning, Code: contract.CodeStale,
			Message: fmt.Sprintf("%s decides %q, a change %s no longer makes: the decision is stale", c.Name(), summary, c.Path),
		})
	}
	exchange.SortDiagnostics(out)
	return out
}

// findingDiagnostic is the diagnostic of res.Findings[i].
func findingDiagnostic(an *anchor.Analysis, res *contract.Result, i int) exchange.Diagnostic {
	f := &res.Findings[i]
	d := exchange.Diagnostic{Range: findingRange(an, f), Code: contract.CodeChange, Severity: exchange.SeverityHint}
	if f.Severity != contract.Breaking {
		d.Message = fmt.Sprintf("%s (%s)", f.Summary, f.Severity)
		return d
	}
	d.Code = contract.CodeBreaking
	var b strings.Builder
	b.WriteString(f.Summary + " — breaking")
	switch f.Decision {
	case contract.Approved, contract.Rejected:
		d.Severity = exchange.SeverityWarning
		if f.Decision == contract.Rejected {
			d.Severity = exchange.SeverityError
		}
		fmt.Fprintf(&b, ", %s by %s in %s: %s", f.Decision, f.Decider, commentName(an, f.DecidedBy), f.Why)
	default:
		d.Severity = exchange.SeverityError
		fmt.Fprintf(&b, ": %s; undecided: approve or reject it", f.Why)
	}
	for _, ig := range res.Ignored {
		if slices.Contains(ig.Findings, i) {
			fmt.Fprintf(&b, "; %s's decision does not count: %s", commentName(an, ig.Comment), ig.Why)
		}
	}
	if f.File.Derived {
		d.Severity = exchange.SeverityWarning
		fmt.Fprintf(&b, " (indicative, it does not gate: compared from %s)", f.File.How)
	}
	d.Message = b.String()
	return d
}

func commentName(an *anchor.Analysis, ci int) string {
	return an.Doc.Review.Comments[ci].Name()
}

// findingRange is the patch line a finding is about, else its file's
// first header line.
func findingRange(an *anchor.Analysis, f *contract.Finding) exchange.Range {
	if f.PatchLine >= 0 {
		return LineRange(&an.Doc.Review.Patch, f.PatchLine)
	}
	return headerRange(an, f.File.Diff)
}

func headerRange(an *anchor.Analysis, fd *anchor.FileDiff) exchange.Range {
	return LineRange(&an.Doc.Review.Patch, fd.First)
}

// ContractLens is the axis and its verdict over the document's first
// brace — "contract: fail (2 breaking, undecided) · verdict: Block" —
// going to the first breaking change still undecided or rejected, else
// the first finding or file. ok is false when the axis does not apply.
func ContractLens(an *anchor.Analysis, res *contract.Result) (Lens, bool) {
	root := an.Doc.Root
	if !res.Applies() || root == nil || root.Kind != exchange.KindObject {
		return Lens{}, false
	}
	target := headerRange(an, res.Files[0].Diff)
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Severity == contract.Breaking && f.Decision != contract.Approved {
			target = findingRange(an, f)
			break
		}
	}
	return Lens{
		Range:  exchange.Range{Start: root.Start, End: root.Start + 1},
		Title:  res.Summary(),
		Target: exchange.Range{Start: target.Start, End: target.Start},
	}, true
}

// ContractActions are "Approve this breaking change" and "Reject this
// breaking change" for each breaking finding on the patch lines between
// start and end: a new comment on that line whose body's first line is
// the decision (contract.DecisionLine), or, when the author's own comment
// decides it already, that first line changed (the other words kept).
// Each settles the finding's diagnostic.
func ContractActions(an *anchor.Analysis, res *contract.Result, start, end int, opts ActionOptions) []Action {
	var out []Action
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Severity != contract.Breaking {
			continue
		}
		rg := findingRange(an, f)
		if rg.End < start || rg.Start > end {
			continue
		}
		d := findingDiagnostic(an, res, i)
		for _, w := range []struct{ word, title string }{{contract.Approved, "Approve"}, {contract.Rejected, "Reject"}} {
			if f.Decision == w.word {
				continue
			}
			edit, ok := decisionEdit(an, f, w.word, opts)
			if !ok {
				continue
			}
			out = append(out, Action{
				Title:    fmt.Sprintf("%s this breaking change: %s", w.title, f.Summary),
				Edits:    []exchange.Edit{edit},
				Resolves: &d,
			})
		}
	}
	return out
}

// decisionEdit writes the decision word on finding f.
func decisionEdit(an *anchor.Analysis, f *contract.Finding, word string, opts ActionOptions) (exchange.Edit, bool) {
	line := contract.DecisionLine(word, f.Summary)
	// Another person's decision is theirs: the action adds the author's
	// own, which wins as the later one, rather than rewording it.
	if f.DecidedBy >= 0 && an.Doc.Review.Comments[f.DecidedBy].Author == opts.author() {
		c := an.Doc.Review.Comments[f.DecidedBy]
		n := c.Member("body")
		if n == nil || n.Kind != exchange.KindString {
			return exchange.Edit{}, false
		}
		_, rest, _ := strings.Cut(c.Body, "\n")
		body := line
		if rest != "" {
			body += "\n" + rest
		}
		return exchange.ReplaceValue(n, jsontext.Quote(body)), true
	}
	fd := f.File.Diff
	dl, ok := decisionLine(an, f)
	if !ok {
		return exchange.Edit{}, false
	}
	side := anchor.Right
	if !dl.In(anchor.Right) {
		side = anchor.Left
	}
	nc := exchange.NewComment{
		ID: FreshID(an.Doc), Author: opts.author(), Path: fd.Name(side), Side: side.String(),
		Start: dl.Number(side), End: dl.Number(side), Body: line,
		Snippet: anchor.SnippetOf(an.Index.Patch, fd, []anchor.ImageLine{dl}), At: Stamp(opts.Now),
	}
	if nc.Path == "" {
		return exchange.Edit{}, false
	}
	return exchange.NewCommentEdit(an.Doc, nc)
}

// decisionLine is the body line a decision on f is anchored on: the
// finding's own, or the first line of its file's first hunk when its
// header carries it.
func decisionLine(an *anchor.Analysis, f *contract.Finding) (anchor.ImageLine, bool) {
	fd := f.File.Diff
	for _, h := range fd.Hunks {
		for j, l := range h.Lines {
			if l.Kind() == anchor.NoNewline {
				continue
			}
			if f.PatchLine < 0 || h.PatchLine(j) == f.PatchLine {
				return anchor.ImageLine{DiffLine: l, Patch: h.PatchLine(j)}, true
			}
		}
	}
	return anchor.ImageLine{}, false
}
