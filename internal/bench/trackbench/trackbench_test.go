package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/lsp"
)

// genTree writes n Go files whose lines repeat as the Go tree's do:
// functions of calls each followed by `if err != nil { return err }`,
// closing braces at three depths, blank lines.
func genTree(t *testing.T, root string, n int) {
	t.Helper()
	for i := range n {
		var b strings.Builder
		pkg := fmt.Sprintf("p%02d", i%20)
		fmt.Fprintf(&b, "package %s\n\nimport \"context\"\n", pkg)
		for f := range 12 + i%37 {
			fmt.Fprintf(&b, "\n// f%d_%d does step %d, then checks it.\nfunc f%d_%d(ctx context.Context) error {\n", i, f, f, i, f)
			for k := range 2 + (i+f)%5 {
				fmt.Fprintf(&b, "\tv%d, err := step%d(ctx, %d)\n\tif err != nil {\n\t\treturn err\n\t}\n", k, k, f)
				if k%2 == 1 {
					fmt.Fprintf(&b, "\tif v%d > 0 {\n\t\tif err := use(v%d); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n", k, k)
				}
				b.WriteString("\n")
			}
			b.WriteString("\treturn nil\n}\n")
		}
		path := filepath.Join(root, pkg, fmt.Sprintf("f%03d.go", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pipes is a server's end of two pipes.
type pipes struct {
	io.Reader
	io.WriteCloser
}

// TestTrackGeneratedTree runs trackbench's scenario (as `make
// bench-track` does on the Go tree) on a generated tree of 200 files, a
// change of 12 and a review of 100 comments, with the server in this
// process over pipes: every publish after typing, pastes of 1, 50 and
// 3,000 lines, deletions, a changed line and a move, in the editor and
// on disk, has each comment on exactly its line or outdated, none on
// another line and none missing; typing and pasting above comments
// outdates none of them.
func TestTrackGeneratedTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the tree is a repository")
	}
	root := t.TempDir()
	genTree(t, root, 200)
	s, err := prepare(root, 12, 100)
	if err != nil {
		t.Fatal(err)
	}
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	srv := lsp.NewServer(lsp.Options{Debounce: lsp.DefaultDebounce, Poll: -1})
	done := make(chan int, 1)
	go func() { done <- srv.Serve(context.Background(), pipes{serverRead, serverWrite}) }()
	t.Cleanup(func() {
		clientWrite.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	r := &run{c: newClient(clientRead, clientWrite), s: s}
	r.c.Wait = time.Minute
	err = r.scenario(scale{keystrokes: 60, pastes: []int{1, 50, 3000}, editor: 2, disk: 2, hovers: 5})
	var out bytes.Buffer
	r.report(&out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	all := r.totals()
	if all.wrong != 0 || all.missing != 0 || r.initialRight != len(s.comments) {
		t.Fatalf("got %d wrong, %d missing, %d of %d placed right at first, want 0, 0, all\n%s", all.wrong, all.missing, r.initialRight, len(s.comments), out.String())
	}
	for _, st := range r.steps {
		if (strings.HasPrefix(st.name, "typing") || strings.HasPrefix(st.name, "editor: paste") || strings.HasPrefix(st.name, "editor: delete the pasted")) && st.outdated != 0 {
			t.Errorf("%s: got %d outdated, want 0 (nothing of theirs changed)", st.name, st.outdated)
		}
		if st.publishes == 0 {
			t.Errorf("%s: no publish checked", st.name)
		}
	}
	t.Log(out.String())
}
