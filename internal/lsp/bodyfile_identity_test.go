package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// bodyReview: c2 has hduran's reply 1 and the assistant's reply 2.
const bodyReview = `{
  "leanreview_review": 1,
  "patch": ["--- a/x.go", "+++ b/x.go", "@@ -1 +1 @@", "-a", "+b"],
  "comments": [
    {"id": "c2", "author": "zoë", "path": "x.go", "side": "RIGHT", "start_line": 1, "body": "Why b?", "replies": [
      {"author": "hduran", "body": "Because.", "at": "2026-12-01T10:00:00Z"},
      {"author": "assistant", "body": "Noted.", "at": "2026-12-01T11:00:00Z"}
    ]}
  ]
}
`

// TestBodyFileWritesOnlyWhereItWasOpened: a body file saved after its
// reply was removed from the review, or after the reply changed there, is
// not written into whatever holds its place now: nothing is applied, and
// the person is told why.
func TestBodyFileWritesOnlyWhereItWasOpened(t *testing.T) {
	for _, tc := range []struct {
		name, edited, why string
	}{
		{"reply removed", strings.Replace(bodyReview, `{"author": "hduran", "body": "Because.", "at": "2026-12-01T10:00:00Z"},`, "", 1), `now assistant's`},
		{"reply changed", strings.Replace(bodyReview, `"Because."`, `"Because it is shorter."`, 1), "changed in the review since the file was opened"},
		{"comment removed", strings.Replace(bodyReview, `"id": "c2"`, `"id": "c3"`, 1), "is gone from the review"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, Options{Poll: 20 * time.Millisecond})
			caps := fullCapabilities("utf-16")
			caps["workspace"] = map[string]any{"applyEdit": true}
			c.mustCall("initialize", map[string]any{"clientInfo": map[string]any{"name": "helix"}, "capabilities": caps}, nil)
			u := protocol.DocumentURI("file:///tmp/bodyid.review.json")
			c.open(u, bodyReview)
			c.mustCall("workspace/executeCommand", map[string]any{"command": CommandOpenBody, "arguments": []any{u, "c2", 0}}, nil)
			c.mu.Lock()
			file := uri.URI(c.shown[len(c.shown)-1].URI).Filename()
			c.mu.Unlock()
			if data, _ := os.ReadFile(file); string(data) != "Because.\n" {
				t.Fatalf("the body file holds %q, want hduran's reply", data)
			}
			c.change(u, 2, nil, tc.edited)
			c.waitDiagnostics(u, 2)
			later := time.Now().Add(time.Hour)
			if err := os.WriteFile(file, []byte("I approve; ship it.\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			_ = os.Chtimes(file, later, later)
			deadline := time.After(10 * time.Second)
			for {
				c.mu.Lock()
				logged, applied := strings.Join(c.logs, "\n"), len(c.applied)
				c.mu.Unlock()
				if applied != 0 {
					t.Fatalf("the save was applied to the review")
				}
				if strings.Contains(logged, "was not written back") {
					if !strings.Contains(logged, tc.why) || !strings.Contains(logged, "nothing written") {
						t.Errorf("the refusal %q does not say %q", logged, tc.why)
					}
					return
				}
				select {
				case <-c.notify:
				case <-deadline:
					t.Fatalf("no refusal logged; logs %q", logged)
				}
			}
		})
	}
}

// TestStaleBodyDirsCleared: the body files a killed server left are
// removed when the next server starts; a running server's, and other
// directories, stay.
func TestStaleBodyDirsCleared(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no process to outlive:", err)
	}
	stale := filepath.Join(tmp, bodyDirPrefix+strconv.Itoa(dead.Process.Pid)+"-123")
	live := filepath.Join(tmp, bodyDirPrefix+strconv.Itoa(os.Getppid())+"-456")
	other := filepath.Join(tmp, "lreview-bodies-notapid")
	for _, dir := range []string{stale, live, other} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "1-c1-body.md"), []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, Options{})
	c.initialize()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Lstat(stale); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still there", stale)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, dir := range []string{live, other} {
		if _, err := os.Lstat(filepath.Join(dir, "1-c1-body.md")); err != nil {
			t.Errorf("%s: %v, want it kept", dir, err)
		}
	}
}
