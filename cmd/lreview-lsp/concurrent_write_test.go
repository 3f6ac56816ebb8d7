package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The writers of TestNoAcknowledgedWriteIsLost work on one review: c1 is
// moved by each rebase onto a diff of its own (its line tells which
// version a rebase read), comment #2's body holds HTML escapes that fix
// writes plainly, the title is spaced as fmt would not space it, and the
// MCP servers reply to c1.
const (
	stressTitleRaw  = `"title"  :  "t"`
	stressTitleDone = `"title": "t"`
	stressBodyRaw   = `"a \u003cb\u003e tag"`
	stressBodyDone  = `"a <b> tag"`
	stressC1Line    = 11
)

// stressDiff is the diff rebase number k puts in: the change of the
// review's patch with k lines more above it, so c1 moves to line 11+k.
func stressDiff(k int) string {
	return fmt.Sprintf("diff --git a/f.go b/f.go\nindex 1111111..2222222 100644\n--- a/f.go\n+++ b/f.go\n@@ -8,7 +%d,8 @@\n ctx a\n ctx b\n ctx c\n-old line\n+new line one\n+new line two\n ctx d\n ctx e\n ctx f\n", 8+k)
}

func stressReview() string {
	patch := strings.Split(strings.TrimSuffix(stressDiff(0), "\n"), "\n")
	var b strings.Builder
	b.WriteString("{\n  \"leanreview_review\": 1,\n  " + stressTitleRaw + ",\n  \"patch\": [\n")
	for i, l := range patch {
		b.WriteString("    " + strconv.Quote(l))
		if i < len(patch)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(`  ],
  "comments": [
    {"id": "c1", "author": "a", "path": "f.go", "side": "RIGHT", "start_line": 11, "body": "x", "snippet": "new line one"},
    {"author": "a", "path": "f.go", "side": "RIGHT", "start_line": 12, "body": ` + stressBodyRaw + `, "snippet": "new line two"}
  ]
}
`)
	return b.String()
}

// stressRun is one command's run: its arguments, exit status and errors.
type stressRun struct {
	args   []string
	status int
	stderr string
}

var (
	movedC1 = regexp.MustCompile(`moved c1 from RIGHT (\d+) to RIGHT (\d+)`)
	c1Line  = regexp.MustCompile(`"id": "c1"[^}]*?"start_line": (\d+)`)
)

// TestNoAcknowledgedWriteIsLost runs, at once and round after round,
// processes of the built command (rebase -w, fix -w, fmt -w) and MCP
// servers (lreview-lsp mcp, each answering several tools/call at once)
// writing one review. Every run that exits 0 and every reply answered OK
// must be in the final file; every other run must say why. Rounds:
// LREVIEW_STRESS_ROUNDS (default 6); LREVIEW_STRESS_BIN runs a binary
// built elsewhere (an earlier version, to see it lose writes).
func TestNoAcknowledgedWriteIsLost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it many times")
	}
	rounds := 6
	if n, err := strconv.Atoi(os.Getenv("LREVIEW_STRESS_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	const perKind, servers, callsPerServer = 2, 2, 3
	bin := os.Getenv("LREVIEW_STRESS_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "lreview-lsp")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	dir := t.TempDir()
	review := filepath.Join(dir, "r.review.json")
	var sessions []*mcp.ClientSession
	for range servers {
		cmd := exec.Command(bin, "mcp", "--root", dir)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "stress", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		sessions = append(sessions, cs)
	}
	k := 0
	var total, refused, okReplies int
	for round := range rounds {
		writeFile(t, review, []byte(stressReview()), 0o644)
		var argv [][]string
		for range perKind {
			k++
			diff := filepath.Join(dir, fmt.Sprintf("d%d.diff", k))
			writeFile(t, diff, []byte(stressDiff(k)), 0o644)
			argv = append(argv, []string{"rebase", "-w", review, diff}, []string{"fix", "-w", review}, []string{"fmt", "-w", review})
		}
		runs := make([]stressRun, len(argv))
		replies := map[string]string{} // body → "" when answered OK, else the error
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, args := range argv {
			wg.Go(func() {
				<-start
				cmd := exec.Command(bin, args...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				runs[i] = stressRun{args: args, status: cmd.ProcessState.ExitCode(), stderr: stderr.String()}
				if err != nil && cmd.ProcessState == nil {
					runs[i].status, runs[i].stderr = -1, err.Error()
				}
			})
		}
		for si, cs := range sessions {
			for c := range callsPerServer {
				body := fmt.Sprintf("reply r%d s%d n%d", round, si, c)
				wg.Go(func() {
					<-start
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lreview_reply", Arguments: map[string]any{"file": "r.review.json", "id": "c1", "body": body}})
					why := ""
					switch {
					case err != nil:
						why = err.Error()
					case res.IsError:
						why = res.Content[0].(*mcp.TextContent).Text
					}
					mu.Lock()
					replies[body] = why
					mu.Unlock()
				})
			}
		}
		close(start)
		wg.Wait()
		final, err := os.ReadFile(review)
		if err != nil {
			t.Fatal(err)
		}
		text := string(final)
		for body, why := range replies {
			total++
			if why == "" {
				okReplies++
				if !strings.Contains(text, strconv.Quote(body)) {
					t.Errorf("round %d: the reply %q was answered OK but is not in the file", round, body)
				}
				continue
			}
			refused++
			if !strings.Contains(why, "changed since it was read") {
				t.Errorf("round %d: the reply %q failed without saying the file changed: %s", round, body, why)
			}
		}
		froms := map[string]bool{}
		tos := map[string]bool{}
		for _, r := range runs {
			total++
			if r.status != 0 {
				refused++
				if r.status != 1 || !strings.Contains(r.stderr, "changed while it was being") || !strings.Contains(r.stderr, "nothing written") {
					t.Errorf("round %d: %s: exit %d without saying the file changed:\n%s", round, strings.Join(r.args[:2], " "), r.status, r.stderr)
				}
				continue
			}
			switch r.args[0] {
			case "fmt":
				if !strings.Contains(text, stressTitleDone) {
					t.Errorf("round %d: fmt -w exited 0 but the title is not formatted: its write was lost\n%s", round, text)
				}
			case "fix":
				if !strings.Contains(text, stressBodyDone) {
					t.Errorf("round %d: fix -w exited 0 but the body's escapes are back: its write was lost\n%s", round, text)
				}
			case "rebase":
				m := movedC1.FindStringSubmatch(r.stderr)
				if m == nil {
					t.Errorf("round %d: rebase exited 0 without moving c1:\n%s", round, r.stderr)
					continue
				}
				if froms[m[1]] {
					t.Errorf("round %d: two rebases exited 0 having read c1 at line %s: one write was lost", round, m[1])
				}
				froms[m[1]], tos[m[2]] = true, true
			}
		}
		// The rebases that wrote form one chain from line 11; the file
		// holds c1 where its last link put it.
		want := strconv.Itoa(stressC1Line)
		for to := range tos {
			if !froms[to] {
				want = to
			}
		}
		if m := c1Line.FindStringSubmatch(text); m == nil || m[1] != want {
			t.Errorf("round %d: c1 is not at line %s, where the last rebase that exited 0 put it:\n%s", round, want, text)
		}
	}
	t.Logf("%d rounds: %d runs and calls, %d refused (the file changed under them), %d replies answered OK", rounds, total, refused, okReplies)
}
