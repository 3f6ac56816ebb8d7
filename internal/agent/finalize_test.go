package agent

import (
	"strings"
	"testing"
	"time"
)

// TestFinalize drives lreview_finalize the way an agent does, through
// the SDK's client: the refusals, a finalize with evidence, the verdict
// lreview_check then reads, a second finalize replacing the first, and a
// person's dismissal of the evidence turning the axis stale.
func TestFinalize(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	s := newSession(t, Options{Now: func() time.Time { return now }}, map[string]string{"pr.review.json": fixture(t)})
	var chk CheckOutput

	// Before any finalize the reviewers' axes are unavailable: Hold.
	text := s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	if v := chk.Verdict; v == nil || v.Verdict != "Hold" ||
		v.Line != "contract: n/a · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold" {
		t.Fatalf("before finalize: got %+v", chk.Verdict)
	}
	if !strings.Contains(text, "verdict: Hold") {
		t.Errorf("before finalize: text %q does not say the verdict", text)
	}

	before := s.read("pr.review.json")
	// A fail without evidence, with a dismissed comment as evidence, an
	// unknown state: refused, naming what to do, nothing written.
	s.refused("lreview_finalize", map[string]any{"file": "pr.review.json", "security": map[string]any{"state": "fail", "reason": "SQL built from input"}},
		"security: a fail needs evidence", "security.evidence", "the active comments are c1, c2", "lreview_add_comment")
	s.refused("lreview_finalize", map[string]any{"file": "pr.review.json", "security": map[string]any{"state": "fail", "evidence": []string{"c4"}}},
		`"c4" is not an active comment`, "dismissed comment is a person's rejection", "c1, c2")
	s.refused("lreview_finalize", map[string]any{"file": "pr.review.json", "correctness": map[string]any{"state": "ok"}},
		"correctness.state: expected pass, warn, fail, partial or unavailable")
	if got := s.read("pr.review.json"); got != before {
		t.Fatalf("a refused finalize wrote the file:\n%s", got)
	}

	var fin FinalizeOutput
	s.ok("lreview_finalize", map[string]any{"file": "pr.review.json",
		"correctness": map[string]any{"state": "warn", "reason": "the connection closes before the fetch"},
		"security":    map[string]any{"state": "fail", "reason": "the query leaks the row", "evidence": []string{"c2"}},
		"summary":     "One blocker."}, &fin)
	wantLine := "contract: n/a · correctness: warn · security: fail (c2) · test gap: unavailable · visual: n/a · verdict: Block"
	if fin.Replaced || fin.Verdict.Verdict != "Block" || fin.Verdict.Line != wantLine || fin.Verdict.FinalizedBy != "assistant" {
		t.Fatalf("finalize: got %+v", fin)
	}
	file := s.read("pr.review.json")
	for _, w := range []string{`"lreview_finalize": {`, `"by": "assistant"`, `"at": "2026-12-07T12:00:00Z"`, `"state": "unavailable"`,
		`"reason": "not given at finalize"`, `"evidence": [`, `"verdict": "Block"`, `"summary": "One blocker."`} {
		if !strings.Contains(file, w) {
			t.Errorf("the review does not hold %s:\n%s", w, file)
		}
	}
	// The review's own members are as they were: summary keeps its meaning.
	if !strings.HasPrefix(file, before[:strings.Index(before, `"comments"`)]) {
		t.Errorf("finalize changed what precedes comments:\n%s", file)
	}
	text = s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	if chk.Verdict.Line != wantLine || chk.Clean || !strings.Contains(text, wantLine+" [verdict]") {
		t.Errorf("check after finalize: got %+v, clean %v, text:\n%s", chk.Verdict, chk.Clean, text)
	}

	// A second finalize replaces the first: one record, the new axes.
	s.ok("lreview_finalize", map[string]any{"file": "pr.review.json",
		"correctness": map[string]any{"state": "pass"},
		"security":    map[string]any{"state": "fail", "evidence": []string{"c1", "c2"}},
		"test_gap":    map[string]any{"state": "warn", "reason": "no test closes the connection"}}, &fin)
	file = s.read("pr.review.json")
	if !fin.Replaced || strings.Count(file, `"lreview_finalize"`) != 1 || strings.Contains(file, "One blocker.") {
		t.Fatalf("second finalize: replaced %v, file:\n%s", fin.Replaced, file)
	}

	// A person dismisses c2: c1 still stands, the fail holds.
	file = strings.Replace(file, `"id": "c2",`, `"id": "c2", "state": "dismissed",`, 1)
	writeFile(t, s.root+"/pr.review.json", file)
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	if got := chk.Verdict.Line; got != "contract: n/a · correctness: pass · security: fail (c2 dismissed: evidence stale) · test gap: warn · visual: n/a · verdict: Block" {
		t.Errorf("one of two dismissed: got %q", got)
	}
	// And c1 too: the person's decision wins; the fail no longer stands
	// but nothing lifts the gate either: Hold, finalize again.
	file = strings.Replace(file, `"id": "c1",`, `"id": "c1", "state": "dismissed",`, 1)
	writeFile(t, s.root+"/pr.review.json", file)
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	if got := chk.Verdict.Line; got != "contract: n/a · correctness: pass · security: fail (c1 dismissed, c2 dismissed: evidence stale, finalize again) · test gap: warn · visual: n/a · verdict: Hold" {
		t.Errorf("all dismissed: got %q", got)
	}
	var sec AxisOut
	for _, a := range chk.Verdict.Axes {
		if a.Name == "security" {
			sec = a
		}
	}
	if strings.Join(sec.Stale, ",") != "c1,c2" {
		t.Errorf("security axis: got %+v, want c1 and c2 stale", sec)
	}
}

// TestFinalizeOnAnotherPatch: a finalize judged one patch; once the
// patch changes (a rebase), its axes hold the verdict until the next.
func TestFinalizeOnAnotherPatch(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var fin FinalizeOutput
	s.ok("lreview_finalize", map[string]any{"file": "pr.review.json",
		"correctness": map[string]any{"state": "pass"}, "security": map[string]any{"state": "pass"}, "test_gap": map[string]any{"state": "pass"}}, &fin)
	if fin.Verdict.Verdict != "Ship" {
		t.Fatalf("got %+v, want Ship", fin.Verdict)
	}
	file := strings.Replace(s.read("pr.review.json"), `"+    return True"`, `"+    return False"`, 1)
	writeFile(t, s.root+"/pr.review.json", file)
	var chk CheckOutput
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	if chk.Verdict.Verdict != "Hold" || !strings.Contains(chk.Verdict.Line, "correctness: pass (finalized on another patch: finalize again)") {
		t.Errorf("got %q, want Hold: finalized on another patch", chk.Verdict.Line)
	}
}

// TestFinalizeArgumentShape: an axis given as a word, not an object, is
// refused saying what the axis takes.
func TestFinalizeArgumentShape(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	s.refused("lreview_finalize", map[string]any{"file": "pr.review.json", "security": "pass"}, `security: expected an object with state, evidence, reason, got "pass"`)
}
