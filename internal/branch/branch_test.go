package branch

import (
	"context"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func examine(t *testing.T, r *branchtest.Repo, review []byte) State {
	t.Helper()
	doc := exchange.Parse(review)
	an := anchor.CheckDocument(doc, nil)
	st, err := Examine(context.Background(), Run, r.Root, Files(&doc.Review.Patch, an.Index))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestExamine: a review of the branch's commits is current; after a
// commit touching its files the branch moved past it (and the rebase's
// diff is base..HEAD); after a force-push its commit is no longer an
// ancestor of HEAD.
func TestExamine(t *testing.T) {
	r := branchtest.NewRepo(t)
	r.Commit("base", map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n", "b.go": "package a\n\nvar B = 2\n", "old.go": "package a\n"})
	base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.Commit("feature", map[string]string{"a.go": "package a\n\nfunc A() int { return 10 }\n", "c.go": "package a\n\nvar C = 3\n", "old.go": ""})
	review := r.Review(base, "HEAD")

	if st := examine(t, r, review); st.Kind != Current || st.Words() != "" {
		t.Fatalf("at the reviewed commit: got %+v", st)
	}

	r.Commit("more", map[string]string{"a.go": "package a\n\nfunc A() int { return 11 }\n"})
	r.Commit("unrelated", map[string]string{"d.go": "package a\n\n// D is elsewhere.\n"})
	r.Commit("more again", map[string]string{"a.go": "package a\n\nfunc A() int { return 12 }\n", "c.go": "package a\n\nvar C = 4\n"})
	st := examine(t, r, review)
	if st.Kind != Moved || st.Commits != 2 || strings.Join(st.Touched, ",") != "a.go,c.go" {
		t.Fatalf("after two commits touching it: got %+v", st)
	}
	if got, want := st.Words(), "the branch moved past this review: 2 commits touch 2 of its files — rebase"; got != want {
		t.Errorf("words: got %q, want %q", got, want)
	}
	diff, err := Diff(context.Background(), Run, r.Root, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+func A() int { return 12 }", "-func A() int { return 1 }", "+var C = 4", "deleted file mode", "+++ b/d.go"} {
		if !strings.Contains(string(diff), want) {
			t.Errorf("the rebase's diff lacks %q:\n%s", want, diff)
		}
	}

	// A force-push: the branch rewritten from the base; the reviewed
	// commit's objects remain, but it is no ancestor of HEAD.
	r.Git("reset", "-q", "--hard", base)
	r.Commit("feature, rewritten", map[string]string{"a.go": "package a\n\nfunc A() int { return 100 }\n"})
	st = examine(t, r, review)
	if st.Kind != Diverged || st.Words() != "the review was made from a commit that is no longer an ancestor of HEAD (a force-push?) — rebase" {
		t.Fatalf("after a force-push: got %+v", st)
	}
	if st.Base == "" {
		t.Errorf("after a force-push: the base is in HEAD's history, got none")
	}

	// A review of another history says nothing.
	other := branchtest.NewRepo(t)
	other.Commit("x", map[string]string{"a.go": "package other\n"})
	if st := examine(t, other, review); st.Kind != Unknown || st.Words() != "" {
		t.Errorf("another repository: got %+v", st)
	}
}
