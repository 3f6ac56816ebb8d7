package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// lreview_finalize: the lead agent records the reviewers' axes
// (internal/verdict, record.go) in the review, and the verdict they make
// with the deterministic axes; lreview_check reads every axis and the
// verdict back (Verdict).

// FinalizeAxis is one reviewer's axis as the lead agent gives it.
type FinalizeAxis struct {
	State    string   `json:"state" jsonschema:"pass, warn, fail, partial (ran, could not finish) or unavailable (could not run); only pass and warn lift the gate"`
	Reason   string   `json:"reason,omitempty" jsonschema:"a short reason, one sentence"`
	Evidence []string `json:"evidence,omitempty" jsonschema:"ids of active comments that show it; a fail needs at least one"`
}

// FinalizeInput is lreview_finalize's input.
type FinalizeInput struct {
	ReviewFile
	Correctness *FinalizeAxis `json:"correctness,omitempty" jsonschema:"the correctness reviewer's axis; left out: unavailable"`
	Security    *FinalizeAxis `json:"security,omitempty" jsonschema:"the security reviewer's axis; left out: unavailable"`
	TestGap     *FinalizeAxis `json:"test_gap,omitempty" jsonschema:"the test-gap reviewer's axis; left out: unavailable"`
	Summary     string        `json:"summary,omitempty" jsonschema:"the finalize's summary in Markdown (the review's own summary member is left as it is)"`
}

// AxisOut is one axis of the verdict.
type AxisOut struct {
	Name     string   `json:"name" jsonschema:"contract, correctness, security, test_gap or visual"`
	Applies  bool     `json:"applies" jsonschema:"false: the axis does not apply to this review (n/a) and does not gate"`
	State    string   `json:"state,omitempty" jsonschema:"pass, warn, fail, partial or unavailable, when it applies"`
	Detail   string   `json:"detail,omitempty" jsonschema:"what the lens shows beside the state: evidence, why unavailable, stale evidence"`
	Reason   string   `json:"reason,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	Stale    []string `json:"stale,omitempty" jsonschema:"evidence comments a person dismissed since, or that are gone"`
}

// Verdict is every axis of a review and the verdict they make.
type Verdict struct {
	Verdict string    `json:"verdict" jsonschema:"Ship, Hold or Block: only pass and warn lift an axis's gate; a failing axis blocks, a partial or unavailable one holds"`
	Line    string    `json:"line" jsonschema:"the axes and the verdict in one line, as the editor's lens reads it"`
	Axes    []AxisOut `json:"axes"`
	// Finalized says who finalized the review and when, when it was.
	FinalizedBy string `json:"finalized_by,omitempty"`
	FinalizedAt string `json:"finalized_at,omitempty"`
}

func verdictOut(axes []verdict.Axis, rec *verdict.Record) *Verdict {
	v := &Verdict{Verdict: string(verdict.Of(axes)), Line: verdict.Line(axes)}
	for _, a := range axes {
		o := AxisOut{Name: a.Name, Applies: a.Applies}
		if a.Applies {
			o.State, o.Detail, o.Reason, o.Evidence, o.Stale = string(a.Status), a.Detail, a.Reason, a.Evidence, a.Stale
			if a.Shown != "" {
				o.Detail = a.Shown
			}
		}
		v.Axes = append(v.Axes, o)
	}
	if rec != nil {
		v.FinalizedBy, v.FinalizedAt = rec.By, rec.At
	}
	return v
}

// FinalizeOutput is lreview_finalize's output.
type FinalizeOutput struct {
	File     string  `json:"file"`
	Replaced bool    `json:"replaced" jsonschema:"true when an earlier finalize was replaced"`
	Verdict  Verdict `json:"verdict"`
}

// agentName is who the server writes as: its agent identity.
func (s *server) agentName() string { return DefaultAuthor }

func (s *server) finalize(ctx context.Context, _ *mcp.CallToolRequest, in FinalizeInput) (*mcp.CallToolResult, FinalizeOutput, error) {
	r, release, err := s.openReview(ctx, in.File, true)
	if err != nil {
		return nil, FinalizeOutput{}, err
	}
	defer release()
	root := r.doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return nil, FinalizeOutput{}, argError("file", "%s is not a review object: fix it first (lreview_check)", r.name)
	}
	rec := &verdict.Record{By: s.agentName(), At: features.Stamp(s.now()), Patch: verdict.PatchSum(&r.doc.Review.Patch), Summary: in.Summary}
	given := map[string]*FinalizeAxis{verdict.Correctness: in.Correctness, verdict.Security: in.Security, verdict.TestGap: in.TestGap}
	for _, name := range verdict.Reviewers {
		ra := rec.Axes.Axis(name)
		g := given[name]
		if g == nil {
			*ra = verdict.RecordAxis{State: string(verdict.Unavailable), Reason: "not given at finalize"}
			continue
		}
		j := verdict.Judgement{State: g.State, Reason: strings.TrimSpace(g.Reason), Evidence: g.Evidence}
		if err := verdict.Check(r.doc, name, j); err != nil {
			return nil, FinalizeOutput{}, argError(name, "%v", err)
		}
		*ra = verdict.RecordAxis(j)
	}
	an := r.analysis()
	axes, _ := s.reviewAxes(ctx, r.path, an, rec)
	rec.Verdict = string(verdict.Of(axes))
	indent := exchange.LineIndent(r.doc.Text, root.Start+1)
	if ms := root.Members(); len(ms) > 0 {
		indent = exchange.LineIndent(r.doc.Text, ms[0].KeyStart())
	}
	replaced := root.Member(verdict.Member) != nil
	edit := exchange.SetMember(r.doc.Text, root, verdict.Member, rec.JSON(indent), "")
	if _, err := s.apply(r, []exchange.Edit{edit}); err != nil {
		return nil, FinalizeOutput{}, err
	}
	out := FinalizeOutput{File: r.name, Replaced: replaced, Verdict: *verdictOut(axes, rec)}
	verb := "finalized"
	if replaced {
		verb = "finalized again (the earlier finalize replaced)"
	}
	return textResult(fmt.Sprintf("%s %s as %s: %s", verb, r.name, rec.By, out.Verdict.Line)), out, nil
}

// withVerdict returns the diagnostics ds (counted in counts) of the
// review at rel with those of its axes, the contract axis when the review
// changes an OpenAPI description, and every axis with the verdict. The
// axes are computed on every call (the working tree changes under a
// version of the review), from the review's working tree as
// lreview_locate finds it, or from the patch alone when that cannot be
// opened.
func (s *server) withVerdict(ctx context.Context, rel string, an *anchor.Analysis, ds []Diagnostic, counts Counts) ([]Diagnostic, Counts, *ContractAxis, *Verdict) {
	axes, res := s.reviewAxes(ctx, rel, an, nil)
	var extra []exchange.Diagnostic
	var caxis *ContractAxis
	if res != nil {
		extra = features.ContractDiagnostics(an, res)
		caxis = contractAxisOf(res)
	}
	extra = features.VerdictDiagnostics(an, extra, axes)
	if len(extra) > 0 {
		all := append(slices.Clip(an.Diagnostics), extra...)
		exchange.SortDiagnostics(all)
		ds, counts = convertDiagnostics(an.Doc, all)
	}
	rec, _, _ := verdict.Read(an.Doc)
	return ds, counts, caxis, verdictOut(axes, rec)
}

// reviewAxes are every axis of the review at rel (an, its analysis), the
// reviewers' from rec (the review's own record when nil), and the
// contract axis's result (nil when it changes no OpenAPI description):
// the contract's and the visual axis's from the review's working tree as
// lreview_locate finds it, or from the patch alone when that cannot be
// opened.
func (s *server) reviewAxes(ctx context.Context, rel string, an *anchor.Analysis, rec *verdict.Record) ([]verdict.Axis, *contract.Result) {
	return features.ReviewAxes(ctx, an, features.AxesFrom{
		Tree: func() *worktree.Tree {
			t, _ := s.tree(rel) // nil when it cannot be opened: the patch alone
			return t
		},
		Visual: s.visual, Record: rec,
	})
}
