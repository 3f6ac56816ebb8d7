package anchor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// formatPatch is what `git format-patch -1 --stdout` wrote for a commit
// whose title has a non-ASCII character: the subject is encoded and folded.
const formatPatch = formatPatchHead + formatPatchDiff + "-- \n2.39.5\n\n"

const formatPatchHead = `From cc0aad3923fb21cbf9a879b9fdfeef0bc118b740 Mon Sep 17 00:00:00 2001
From: A Person <a@b>
Date: Thu, 3 Dec 2026 16:10:39 +0000
Subject: [PATCH] =?UTF-8?q?Fix=20the=20counting=20in=20f.txt:=20numbers=20?=
 =?UTF-8?q?n=C3=A9e=20words?=
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

Longer explanation of the change,
over two lines.

Signed-off-by: A Person <a@b>
---
 f.txt | 3 ++-
 1 file changed, 2 insertions(+), 1 deletion(-)

`

const formatPatchDiff = `diff --git a/f.txt b/f.txt
index 4cb29ea..ea14db2 100644
--- a/f.txt
+++ b/f.txt
@@ -1,3 +1,4 @@
 one
-two
+2
 three
+four
`

// gitShowHead is what git show prints before the diff of formatPatch's
// commit.
const gitShowHead = `commit cc0aad3923fb21cbf9a879b9fdfeef0bc118b740
Author: A Person <a@b>
Date:   Thu Dec 3 16:10:39 2026 +0000

    Fix the counting in f.txt: numbers née words

    Longer explanation of the change,
    over two lines.

    Signed-off-by: A Person <a@b>

`

// attachedPatch is the shape of git format-patch --attach: the message
// and diffstat in a first part, the diff (here base64) in a second.
const attachedPatch = `From: A Person <a@b>
Subject: [PATCH] Attached
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="------------2.39.5"

This is a multi-part message in MIME format.
--------------2.39.5
Content-Type: text/plain; charset=UTF-8; format=fixed
Content-Transfer-Encoding: quoted-printable

The message=2E
---
 f.txt | 3 ++-

--------------2.39.5
Content-Type: text/x-patch; name="0001-Attached.patch"
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="0001-Attached.patch"

` + "ZGlmZiAtLWdpdCBhL2YudHh0IGIvZi50eHQKaW5kZXggNGNiMjllYS4uZWExNGRiMiAxMDA2NDQK\nLS0tIGEvZi50eHQKKysrIGIvZi50eHQKQEAgLTEsMyArMSw0IEBACiBvbmUKLXR3bworMgogdGhy\nZWUKK2ZvdXIK\n" + `
--------------2.39.5--
`

func TestReadCommit(t *testing.T) {
	qpBody := "Content-Transfer-Encoding: quoted-printable\n\nSee =C3=A9.\n---\n" + strings.ReplaceAll(formatPatchDiff, "+four", "+f=3Dour")
	tests := []struct {
		name, in               string
		subject, message, diff string
		notMail                bool
		err                    string
	}{
		{name: "git format-patch", in: formatPatch, subject: "Fix the counting in f.txt: numbers née words",
			message: "Longer explanation of the change,\nover two lines.\n\nSigned-off-by: A Person <a@b>", diff: formatPatchDiff},
		{name: "CRLF", in: strings.ReplaceAll(formatPatch, "\n", "\r\n"), subject: "Fix the counting in f.txt: numbers née words",
			message: "Longer explanation of the change,\r\nover two lines.\r\n\r\nSigned-off-by: A Person <a@b>", diff: strings.ReplaceAll(formatPatchDiff, "\n", "\r\n")},
		{name: "no stat, a series' prefix, no message", in: "From: a@b\nSubject: [PATCH v2 3/7] Title\n\n---\n" + formatPatchDiff + "-- \n2.43.0\n",
			subject: "Title", diff: formatPatchDiff},
		{name: "quoted-printable", in: "From: a@b\nSubject: [RFC PATCH] QP\n" + qpBody, subject: "QP", message: "See é.",
			diff: strings.ReplaceAll(formatPatchDiff, "+four", "+f=our")},
		{name: "base64", in: "From: a@b\nSubject: B64\nContent-Transfer-Encoding: base64\n\nTGluZQotLS0KZGlmZiAtLWdpdCBhL3ggYi94Ci0tLSBhL3gKKysrIGIveApAQCAtMSArMSBAQAotYQorYgo=\n",
			subject: "B64", message: "Line", diff: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"},
		// A removed line "- " is spelt "-- ": hunk lines after it keep it.
		{name: "a removed line that looks like a signature", in: "Subject: S\n\n---\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-- \n x\n",
			subject: "S", diff: "--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-- \n x\n"},
		{name: "a plain diff", in: formatPatchDiff, notMail: true},
		{name: "git show", in: gitShowHead + formatPatchDiff, subject: "Fix the counting in f.txt: numbers née words",
			message: "Longer explanation of the change,\nover two lines.\n\nSigned-off-by: A Person <a@b>", diff: formatPatchDiff},
		{name: "git log -p, decorated, with a diffstat", in: strings.Replace(gitShowHead, "\n", " (HEAD -> main, origin/main)\n", 1) + "---\n f.txt | 3 ++-\n\n" + formatPatchDiff,
			subject: "Fix the counting in f.txt: numbers née words", message: "Longer explanation of the change,\nover two lines.\n\nSigned-off-by: A Person <a@b>", diff: formatPatchDiff},
		{name: "git log -p of two commits", in: gitShowHead + formatPatchDiff + "\n" + gitShowHead + formatPatchDiff,
			err: "the input holds 2 commits (git log -p of several): give one (git show <commit>), or the diff of the range (git diff A..B)"},
		{name: "git show --no-patch", in: gitShowHead, err: `the commit holds no diff (git show --no-patch?): expected the diff ("diff --git" or "---"/"+++" file headers) after its message`},
		{name: "two commits", in: formatPatch + formatPatch, err: "the input holds 2 patches (git format-patch of 2 commits): give one, or the diff of the range (git diff A..B)"},
		{name: "no diff", in: "From: a@b\nSubject: S\n\nJust a message.\n", err: `the patch email holds no diff: expected a "---" line, then the diff ("diff --git" or "---"/"+++" file headers)`},
		{name: "the diff attached", in: attachedPatch, subject: "Attached", message: "The message.", diff: formatPatchDiff},
		{name: "an encoding not read", in: "From: a@b\nSubject: S\nContent-Transfer-Encoding: x-uuencode\n\n", err: `the patch email's Content-Transfer-Encoding "x-uuencode" is not one this reads (8bit, quoted-printable or base64)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, isMail, err := ReadCommit([]byte(tt.in))
			switch {
			case tt.err != "":
				if err == nil || err.Error() != tt.err {
					t.Fatalf("got error %v, want %q", err, tt.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			case isMail == tt.notMail:
				t.Fatalf("got mail %v, want %v", isMail, !tt.notMail)
			case tt.notMail:
				return
			}
			if m.Title != tt.subject || m.Message != tt.message || string(m.Diff) != tt.diff {
				t.Errorf("got title %q, message %q, diff\n%s\nwant %q, %q,\n%s", m.Title, m.Message, m.Diff, tt.subject, tt.message, tt.diff)
			}
		})
	}
}

// TestNewReviewFromCommit: the review of a commit as git prints it
// with its diff (format-patch, show, log -p), by a real git when there is one, has the commit's title and
// message, its diff alone, and checks clean; a title or summary given
// wins over the commit's.
func TestNewReviewFromCommit(t *testing.T) {
	mails := map[string][]byte{"format-patch": []byte(formatPatch), "show": []byte(gitShowHead + formatPatchDiff)}
	if git, err := exec.LookPath("git"); err == nil {
		mails = gitCommitOutputs(t, git)
	}
	for how, mail := range mails {
		t.Run(how, func(t *testing.T) { checkNewReviewFromMail(t, mail) })
	}
}

func checkNewReviewFromMail(t *testing.T, mail []byte) {
	t.Helper()
	out, err := NewReview(mail, "", "")
	if err != nil {
		t.Fatal(err)
	}
	doc := exchange.Parse(out)
	if got := doc.Review.Title; got != "Fix the counting in f.txt: numbers née words" {
		t.Errorf("title %q, want the commit's", got)
	}
	if got := doc.Review.Summary; !strings.HasPrefix(got, "Longer explanation of the change,\nover two lines.") {
		t.Errorf("summary %q, want the commit's message", got)
	}
	if first, last := doc.Review.Patch.LineText(0), doc.Review.Patch.LineText(doc.Review.Patch.LineCount()-1); first != "diff --git a/f.txt b/f.txt" || last != "+four" {
		t.Errorf("patch from %q to %q, want the diff alone", first, last)
	}
	if ds := CheckDocument(doc, nil).Diagnostics; len(ds) > 0 {
		t.Errorf("the new review has diagnostics: %v", ds)
	}
	out, err = NewReview(mail, "Mine", "My summary")
	if err != nil {
		t.Fatal(err)
	}
	if doc := exchange.Parse(out); doc.Review.Title != "Mine" || doc.Review.Summary != "My summary" {
		t.Errorf("got title %q and summary %q, want the ones given", doc.Review.Title, doc.Review.Summary)
	}
}

// gitCommitOutputs commits formatPatch's change in a new repository and
// returns what git prints of it with its diff: format-patch, plain and
// with the diff attached, show, and log -p.
func gitCommitOutputs(t *testing.T, git string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) []byte {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=A Person", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=A Person", "GIT_COMMITTER_EMAIL=a@b")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("one\ntwo\nthree\n")
	run("add", "f.txt")
	run("commit", "-qm", "init")
	write("one\n2\nthree\nfour\n")
	run("commit", "-qam", "Fix the counting in f.txt: numbers née words\n\nLonger explanation of the change,\nover two lines.")
	return map[string][]byte{
		"format-patch":          run("format-patch", "-1", "--stdout"),
		"format-patch --attach": run("format-patch", "-1", "--stdout", "--attach"),
		"format-patch --inline": run("format-patch", "-1", "--stdout", "--inline"),
		"show":                  run("show", "--no-color", "HEAD"),
		"show --stat -p":        run("show", "--no-color", "--stat", "-p", "--decorate", "HEAD"),
		"log -p -1":             run("log", "--no-color", "-p", "-1"),
	}
}

// FuzzReadCommit: whatever the input, ReadCommit neither panics nor
// takes a commit without a diff: what it gives starts a diff.
func FuzzReadCommit(f *testing.F) {
	for _, seed := range []string{formatPatch, attachedPatch, gitShowHead + formatPatchDiff, formatPatchDiff, "From: a\n\n---\n--- a\n", "commit " + strings.Repeat("a", 40) + "\n\n    t\n\n--- x\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ok, err := ReadCommit(data)
		if !ok || err != nil {
			return
		}
		if !strings.HasPrefix(string(c.Diff), "diff ") && !strings.HasPrefix(string(c.Diff), "--- ") {
			t.Fatalf("ReadCommit(%q) took a commit whose diff starts %q", data, c.Diff[:min(len(c.Diff), 20)])
		}
	})
}
