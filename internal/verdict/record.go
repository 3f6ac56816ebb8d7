package verdict

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The finalize record: what the lead agent published when it finalized
// the review, kept in the review file as the extension member Member
// (review-exchange.md tolerates unknown members; leanreview's own rewrite
// drops them, so a review that went through it is simply not finalized
// any more: the axes read unavailable, never green). `summary` keeps its
// meaning: the record's summary is its own.
//
//	"lreview_finalize": {
//	  "by": "assistant", "at": "2026-12-07T12:00:00Z",
//	  "patch": "<sha256 of the patch's lines>",
//	  "axes": {
//	    "correctness": {"state": "warn", "reason": "…"},
//	    "security": {"state": "fail", "reason": "…", "evidence": ["c4"]},
//	    "test_gap": {"state": "unavailable", "reason": "not given at finalize"}
//	  },
//	  "summary": "…", "verdict": "Block"
//	}
//
// The record is the review's data, so an attacker's: it is read with a
// size cap, and what it says is checked again on every read — evidence a
// person dismissed since, a patch that changed since — so that the
// verdict is recomputed, never kept.

// Member is the record's member in the review's top-level object.
const Member = "lreview_finalize"

// NotFinalized is the reviewers' axes' detail before any finalize.
const NotFinalized = "not finalized"

// maxRecord bounds the record's JSON: three states, three short reasons
// and a summary.
const maxRecord = 256 << 10

// Record is a finalize as written in the review.
type Record struct {
	By      string     `json:"by"`
	At      string     `json:"at"`
	Patch   string     `json:"patch"`
	Axes    RecordAxes `json:"axes"`
	Summary string     `json:"summary,omitempty"`
	Verdict string     `json:"verdict"`
}

// RecordAxes are the three reviewers' axes, in a fixed order.
type RecordAxes struct {
	Correctness RecordAxis `json:"correctness"`
	Security    RecordAxis `json:"security"`
	TestGap     RecordAxis `json:"test_gap"`
}

// RecordAxis is one reviewer's axis: its state, a short reason, and the
// comments that are its evidence.
type RecordAxis struct {
	State    string   `json:"state"`
	Reason   string   `json:"reason,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
}

// Axis returns the record's axis name (one of Reviewers).
func (r *RecordAxes) Axis(name string) *RecordAxis {
	switch name {
	case Correctness:
		return &r.Correctness
	case Security:
		return &r.Security
	case TestGap:
		return &r.TestGap
	}
	return nil
}

// States are the five states an axis reports.
var States = []Status{Pass, Warn, Fail, Partial, Unavailable}

// Sums keeps PatchSum by the patch's origin, which the versions of a
// review whose patch an edit did not touch share: a keystroke in a
// comment of a finalized 8 MB review does not hash its patch again. Safe
// for concurrent use; bounded. The zero value is ready.
type Sums struct {
	mu sync.Mutex
	m  map[*exchange.PatchOrigin]string
}

const maxSums = 64

// Of is p's PatchSum; s may be nil.
func (s *Sums) Of(p *exchange.Patch) string {
	o := p.Origin()
	if s == nil || o == nil {
		return PatchSum(p)
	}
	s.mu.Lock()
	sum, ok := s.m[o]
	s.mu.Unlock()
	if ok {
		return sum
	}
	sum = PatchSum(p)
	s.mu.Lock()
	if s.m == nil || len(s.m) >= maxSums {
		s.m = map[*exchange.PatchOrigin]string{}
	}
	s.m[o] = sum
	s.mu.Unlock()
	return sum
}

// PatchSum identifies the patch a finalize judged: the SHA-256 of its
// diff lines, so that reformatting the review (string or array form,
// escapes) does not change it and a rebase does.
func PatchSum(p *exchange.Patch) string {
	h := sha256.New()
	for i := range p.LineCount() {
		h.Write([]byte(p.LineText(i)))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Read returns the review's record and its member's node, or nil and no
// error when the review was never finalized; an error says why the member
// is not a record.
func Read(doc *exchange.Document) (*Record, *exchange.Node, error) {
	root := doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return nil, nil, nil
	}
	n := root.Member(Member)
	if n == nil {
		return nil, nil, nil
	}
	if n.Kind != exchange.KindObject {
		return nil, n, fmt.Errorf("%s is not an object", Member)
	}
	if n.End-n.Start > maxRecord {
		return nil, n, fmt.Errorf("%s is larger than %d KB", Member, maxRecord>>10)
	}
	var rec Record
	if err := json.Unmarshal(doc.Text.Slice(n.Start, n.End), &rec); err != nil {
		return nil, n, fmt.Errorf("%s is not a finalize record: %v", Member, err)
	}
	return &rec, n, nil
}

// JSON is the record as the member's value, indented to sit at indent.
func (r *Record) JSON(indent string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, "  ")
	if err := enc.Encode(r); err != nil {
		panic(err) // strings and slices of strings always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ReviewerAxes are the three reviewers' axes of doc as its record says,
// checked against the review as it is now:
//   - never finalized: each unavailable (NotFinalized);
//   - a record that cannot be read: each unavailable, saying why;
//   - a state that is not one of the five: that axis unavailable;
//   - a record made on another patch: each held (the review changed since
//     the reviewers judged it: finalize again);
//   - evidence a person dismissed since, or that is gone: stale; an axis
//     whose evidence is all stale is held, whatever it said (the person's
//     decision wins; the axis must be judged again).
func ReviewerAxes(doc *exchange.Document, sums *Sums) []Axis {
	rec, _, err := Read(doc)
	return RecordedAxes(rec, err, doc, sums)
}

// RecordedAxes are the reviewers' axes rec (nil: never finalized; err:
// why the member is not a record) gives, checked against doc.
func RecordedAxes(rec *Record, err error, doc *exchange.Document, sums *Sums) []Axis {
	out := make([]Axis, 0, len(Reviewers))
	for _, name := range Reviewers {
		a := Axis{Name: name, Applies: true, Status: Unavailable}
		switch {
		case err != nil:
			a.Detail = Member + " unreadable"
			a.Reason = err.Error()
		case rec == nil:
			a.Detail = NotFinalized
		default:
			judged(&a, rec, rec.Axes.Axis(name), doc, sums)
		}
		out = append(out, a)
	}
	return out
}

// judged fills a from its record ra.
func judged(a *Axis, rec *Record, ra *RecordAxis, doc *exchange.Document, sums *Sums) {
	st := Status(ra.State)
	if !slices.Contains(States, st) {
		a.Detail = fmt.Sprintf("%q is not a state", ra.State)
		return
	}
	a.Status, a.Reason, a.Evidence = st, ra.Reason, ra.Evidence
	byName := map[string]*exchange.Comment{}
	for _, c := range doc.Review.Comments {
		byName[c.Name()] = c
	}
	var gone []string
	for _, id := range ra.Evidence {
		c := byName[id]
		switch {
		case c == nil:
			a.Stale = append(a.Stale, id)
			gone = append(gone, id+" gone")
		case c.StateNorm() == exchange.StateDismissed:
			a.Stale = append(a.Stale, id)
			gone = append(gone, id+" dismissed")
		}
	}
	a.Detail = strings.Join(ra.Evidence, ", ")
	if len(a.Stale) > 0 {
		a.Detail = strings.Join(gone, ", ") + ": evidence stale"
		if len(a.Stale) == len(a.Evidence) {
			a.Detail += ", finalize again"
			a.Floor = Hold
		}
	}
	if rec.Patch != sums.Of(&doc.Review.Patch) {
		a.Detail = strings.TrimPrefix(a.Detail+"; ", "; ") + "finalized on another patch: finalize again"
		a.Floor = Hold
	}
}

// Judgement is one reviewer's axis as the lead agent gives it at finalize.
type Judgement struct {
	State    string
	Reason   string
	Evidence []string
}

// Check refuses what a finalize must not record, in words an agent can
// act on: a state that is not one of the five, and a fail without
// evidence or with evidence that is not an active comment of doc. arg
// names the argument at fault.
func Check(doc *exchange.Document, name string, j Judgement) error {
	if !slices.Contains(States, Status(j.State)) {
		return fmt.Errorf("%s.state: expected pass, warn, fail, partial or unavailable, got %q", name, j.State)
	}
	active := map[string]bool{}
	var ids []string
	for _, c := range doc.Review.Comments {
		if c.StateNorm() == exchange.StateActive {
			active[c.Name()] = true
			ids = append(ids, c.Name())
		}
	}
	for _, id := range j.Evidence {
		if !active[id] {
			return fmt.Errorf("%s.evidence: %q is not an active comment of the review (a dismissed comment is a person's rejection, not evidence); the active comments are %s", name, id, listOr(ids))
		}
	}
	if Status(j.State) == Fail && len(j.Evidence) == 0 {
		if len(ids) == 0 {
			return fmt.Errorf("%s: a fail needs evidence, and the review has no active comment: add one saying what fails (lreview_add_comment), then name its id in %s.evidence", name, name)
		}
		return fmt.Errorf("%s: a fail needs evidence: name the active comment(s) that show it in %s.evidence (the active comments are %s), or add one (lreview_add_comment)", name, name, listOr(ids))
	}
	return nil
}

func listOr(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	const most = 20
	if len(ids) > most {
		return strings.Join(ids[:most], ", ") + fmt.Sprintf(" and %d more", len(ids)-most)
	}
	return strings.Join(ids, ", ")
}
