// Command trackbench measures how the server's comments follow the code
// (issue 45) on a copy of the Go distribution's source tree: a change of
// 60 files edited where their lines repeat (`}`, `if err != nil {`,
// `return err`), a 400-comment review of it, most comments on those
// lines. It starts the server binary over stdio as an editor does, opens
// the review and the changed files, then types 8 lines above a comment
// one keystroke a change, pastes 1, 50 and 3,000 lines at the top,
// deletes lines, changes a comment's line and moves a block, in the
// editor and on disk (the file written, didChangeWatchedFiles). After
// each step it reads the published comments and checks each against
// where the harness itself computes its lines to be: on exactly those,
// or outdated; never on another line. It exits 1 when one is.
//
// GOROOT is copied into a temporary directory and never written. `make
// bench-track` builds the server and runs it; it is not part of `make
// test` (TestTrackGeneratedTree runs the same scenario on a generated
// tree there).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	server := flag.String("server", "bin/lreview-lsp", "the lreview-lsp binary")
	goroot := flag.String("goroot", "", "the Go distribution to copy src from (default: go env GOROOT)")
	files := flag.Int("files", 60, "files the change edits")
	comments := flag.Int("comments", 400, "comments of the review")
	keep := flag.Bool("keep", false, "keep the temporary copy, and print where it is")
	flag.Parse()
	if err := benchGoroot(*server, *goroot, *files, *comments, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "trackbench:", err)
		os.Exit(1)
	}
}

func benchGoroot(server, goroot string, nfiles, ncomments int, keep bool) error {
	if goroot == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %w", err)
		}
		goroot = strings.TrimSpace(string(out))
	}
	server, err := filepath.Abs(server)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "trackbench")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("copy kept in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	root := filepath.Join(tmp, "src")
	began := time.Now()
	// cp -R: the copy is a plain tree of files (links as links), GOROOT
	// is only read.
	if out, err := exec.Command("cp", "-R", filepath.Join(goroot, "src"), root).CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s/src: %v: %s", goroot, err, out)
	}
	count := 0
	_ = filepath.WalkDir(root, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			count++
		}
		return nil
	})
	s, err := prepare(root, nfiles, ncomments)
	if err != nil {
		return err
	}
	fmt.Printf("tree: %s/src, %d files, copied and committed in %.1f s\n", goroot, count, time.Since(began).Seconds())
	cmd := exec.Command(server)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", server, err)
	}
	defer func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	r := &run{c: newClient(out, in), s: s}
	err = r.scenario(scale{keystrokes: 200, pastes: []int{1, 50, 3000}, editor: 3, disk: 3, hovers: 50})
	r.report(os.Stdout)
	if err != nil {
		return err
	}
	if t := r.totals(); t.wrong > 0 || t.missing > 0 {
		return fmt.Errorf("%d comments on a wrong line, %d not published", t.wrong, t.missing)
	}
	return nil
}

// report prints the figures as issue 45 gives them.
func (r *run) report(w io.Writer) {
	repeatedOnes, ranges := 0, 0
	for _, c := range r.s.comments {
		if repeated(c.text) {
			repeatedOnes++
		}
		if c.end > c.start {
			ranges++
		}
	}
	fmt.Fprintf(w, "change: %d files, %d diff lines; review: %d comments (%d on `}`, `if err != nil {` or `return err`, %d ranges)\n",
		len(r.s.files), r.s.diffLines, len(r.s.comments), repeatedOnes, ranges)
	fmt.Fprintf(w, "before edits: %d of %d comments placed right\n", r.initialRight, len(r.s.comments))
	fmt.Fprintf(w, "first file pushed after first open: %d ms\n\n", r.firstPush.Milliseconds())
	fmt.Fprintf(w, "| %-70s | %9s | %5s | %8s | %5s | %7s | %8s | %6s |\n", "step", "publishes", "bad", "comments", "wrong", "missing", "outdated", "intact")
	fmt.Fprintf(w, "|%s|%s|%s|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 72), strings.Repeat("-", 11), strings.Repeat("-", 7), strings.Repeat("-", 10), strings.Repeat("-", 7), strings.Repeat("-", 9), strings.Repeat("-", 10), strings.Repeat("-", 8))
	row := func(s step) {
		fmt.Fprintf(w, "| %-70s | %9d | %5d | %8d | %5d | %7d | %8d | %6d |\n", s.name, s.publishes, s.badPublishes, s.checked, s.wrong, s.missing, s.outdated, s.intact)
	}
	for _, s := range r.steps {
		row(*s)
	}
	t := r.totals()
	t.name = "all"
	row(t)
	fmt.Fprintln(w, "(bad: publishes with a comment wrong or missing; wrong: published on a line that is not the comment's, not outdated; intact: outdated although its lines are there, in order)")
	fmt.Fprintf(w, "\nkeystroke → publish: p50 %s, p95 %s, max %s (%d keystrokes)\n", pct(r.keys, 50), pct(r.keys, 95), pct(r.keys, 100), len(r.keys))
	fmt.Fprintf(w, "hover: p50 %s (%d hovers)\n", pct(r.hovers, 50), len(r.hovers))
	fmt.Fprintf(w, "empty publishes before a file's comments came (on disk): %d\n", r.flickers)
	fmt.Fprintf(w, "wrong lines: %d\n", t.wrong)
	for _, e := range r.examples {
		fmt.Fprintln(w, "  ", e)
	}
}

// pct is the p-th percentile of ds, in milliseconds.
func pct(ds []time.Duration, p int) string {
	if len(ds) == 0 {
		return "–"
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	i := min(len(ds)-1, (len(ds)*p+99)/100-1)
	return fmt.Sprintf("%.2f ms", float64(ds[max(i, 0)].Microseconds())/1000)
}
