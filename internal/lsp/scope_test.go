package lsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// waitMessage waits for a window/showMessage holding all of want.
func (c *testClient) waitMessage(want ...string) string {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		msgs := slices.Clone(c.messages)
		c.mu.Unlock()
		for _, m := range msgs {
			if !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(m, w) }) {
				return m
			}
		}
		select {
		case <-c.notify:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no message holds %q; got %q", want, msgs)
		}
	}
}

// TestScopeSourceRootOutsideWorkspace: a sourceRoot that leaves the
// workspace ("..", as a workspace's own settings could say) is refused
// and the person is told; the review's files are then read in the
// workspace folder, never in the directory above it, which holds a file
// of the same name.
func TestScopeSourceRootOutsideWorkspace(t *testing.T) {
	for _, setting := range []string{"..", "link"} {
		t.Run(setting, func(t *testing.T) {
			root, review := testreviews.WorktreeRepo(t, 0, "")
			above := filepath.Dir(root)
			outside := filepath.Join(above, "internal", "api", "handler.go")
			if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(outside, []byte(testreviews.WorktreeSource(0, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			// "link" is inside the workspace by name, outside once resolved.
			if err := os.Symlink(above, filepath.Join(root, "link")); err != nil {
				t.Fatal(err)
			}
			c := newTestClient(t, Options{})
			caps := fullCapabilities("utf-16")
			caps["workspace"] = map[string]any{"applyEdit": true}
			initializeIn(c, root, caps, map[string]any{"lreview": map[string]any{"sourceRoot": setting}})
			c.waitMessage("lreview.sourceRoot", "outside the workspace")
			u := protocol.DocumentURI(uri.File(review))
			c.open(u, testreviews.WorktreeReview)
			c.waitDiagnostics(u, 1)
			off := strings.Index(testreviews.WorktreeReview, "Return the error") + 1
			var locs []protocol.Location
			c.mustCall("textDocument/implementation", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(testreviews.WorktreeReview, off, 0)}, &locs)
			want := filepath.Join(root, "internal", "api", "handler.go")
			if len(locs) != 1 || fileOf(string(locs[0].URI)) != want {
				t.Errorf("implementation: got %s, want %s in the workspace", jsonOf(t, locs), want)
			}
		})
	}
}

// TestScopeHostileGlobExits: a glob of many "**" segments over a tree 30
// directories deep (the case, and one that no folding of "**"
// can simplify) is walked in bounded time, and `exit` exits at once.
func TestScopeHostileGlobExits(t *testing.T) {
	for _, glob := range []string{
		strings.Repeat("**/", 13) + "x",
		strings.Repeat("**/*/", 7) + "x",
	} {
		t.Run(fmt.Sprint(strings.Count(glob, "/")+1, "segments"), func(t *testing.T) {
			root := t.TempDir()
			deep := root
			for i := range 30 {
				deep = filepath.Join(deep, fmt.Sprint("d", i))
			}
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(deep, "y"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			c := newTestClient(t, Options{Poll: -1})
			initializeIn(c, root, fullCapabilities("utf-16"), map[string]any{"lreview": map[string]any{"reviews": []string{glob}}})
			source := protocol.DocumentURI(uri.File(filepath.Join(root, "main.go")))
			c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": source, "languageId": "go", "version": 1, "text": "package main\n"}})
			select {
			case <-c.srv.wt.scan.first:
			case <-time.After(5 * time.Second):
				t.Fatal("the walk did not end within 5s")
			}
			start := time.Now()
			c.mustCall("shutdown", nil, nil)
			c.notifyServer("exit", nil)
			select {
			case <-c.exit:
			case <-time.After(5 * time.Second):
				t.Fatal("the server did not exit within 5s of exit")
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("exit took %v", took)
			}
		})
	}
}

// backtrack is the matcher the scope used before: "**" any number of
// segments, tried one by one.
func backtrack(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if backtrack(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// TestScopeGlobs: the checked globs refuse what leaves the source root
// or is malformed, and match as the backtracking matcher did on every
// small case, at a cost of at most depth × segments matches.
func TestScopeGlobs(t *testing.T) {
	for _, bad := range []string{"", "/etc/**", "../*.review.json", "a/../../x", "a//b", "./x", "[", strings.Repeat("a/", maxGlobSegments) + "x"} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q): accepted", bad)
		}
	}
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		{"**/*.review.json", "a.review.json", true},
		{"**/*.review.json", "a/b/c.review.json", true},
		{"**/*.review.json", "a/b/c.json", false},
		{"reviews/*.review.json", "reviews/x.review.json", true},
		{"reviews/*.review.json", "reviews/a/x.review.json", false},
		{"reviews/**", "reviews/a/b", true},
		{"**/**/x", "x", true},
	} {
		g, err := compileGlob(tc.glob)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tc.glob, err)
		}
		work := 0
		if got := g.matchPath(tc.path, &work); got != tc.want {
			t.Errorf("%q matches %q: got %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(from []string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = from[rng.IntN(len(from))]
		}
		return out
	}
	for range 20000 {
		pat := pick([]string{"**", "*", "a", "b*", "?"}, 1+rng.IntN(5))
		segs := pick([]string{"a", "b", "bb", "c"}, rng.IntN(6))
		g, err := compileGlob(strings.Join(pat, "/"))
		if err != nil {
			t.Fatal(err)
		}
		work := 0
		got := g.matchPath(strings.Join(segs, "/"), &work)
		if len(segs) == 0 {
			continue // no path is empty
		}
		if want := backtrack(pat, segs); got != want {
			t.Fatalf("%q matches %q: got %v, the backtracking matcher %v", pat, segs, got, want)
		}
		if work > len(segs)*len(pat) {
			t.Fatalf("%q on %q: %d matches, more than depth × segments", pat, segs, work)
		}
	}
}

// TestScopeWalkBreadthFirst: the walk finds the reviews near the top
// before its bound on entries is met deep in a large tree (walked depth
// first, the deep tree, first by name, used the bound up), says which
// bound stopped it, and never goes under a directory no glob can match
// in.
func TestScopeWalkBreadthFirst(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		name := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 300 {
		write(fmt.Sprintf("aaa/bbb/ccc/f%d.go", i))
	}
	write("reviews/x.review.json")
	write("zzz/deeper/y.review.json")
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, _ := compileGlob("**/*.review.json")
	lim := scanLimits{entries: 100, depth: 64, work: 1000}
	found, bound := findReviews(t.Context(), r, []reviewGlob{g}, 64, lim)
	if want := []string{filepath.Join("reviews", "x.review.json"), filepath.Join("zzz", "deeper", "y.review.json")}; !slices.Equal(found, want) {
		t.Errorf("found %q, want %q", found, want)
	}
	if bound != "after 100 directory entries" {
		t.Errorf("bound: got %q, want the entries'", bound)
	}
	// A glob under reviews/ alone never reads aaa/: no bound is met.
	g, _ = compileGlob("reviews/*.review.json")
	found, bound = findReviews(t.Context(), r, []reviewGlob{g}, 64, lim)
	if want := []string{filepath.Join("reviews", "x.review.json")}; !slices.Equal(found, want) || bound != "" {
		t.Errorf("reviews/*.review.json: found %q (bound %q), want %q and no bound", found, bound, want)
	}
	// Cancelled: the walk stops.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if found, _ := findReviews(ctx, r, []reviewGlob{g}, 64, defaultScanLimits()); len(found) != 0 {
		t.Errorf("cancelled: found %q", found)
	}
}

// TestScopeBoundSaid: a review deeper than the walk goes is not found,
// and the person is told where the walk stopped, instead of nothing.
func TestScopeBoundSaid(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	deep := s.root
	for i := range maxScanDepth + 2 {
		deep = filepath.Join(deep, fmt.Sprint(i))
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "deep.review.json"), []byte(secondReview), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.waitFor(s.source, "the review near the top", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	s.c.waitMessage("stopped looking for reviews under "+s.root, fmt.Sprintf("at %d directories deep", maxScanDepth), "1 found")
}

// TestScopeGlobsRefusedSaid: review globs that leave the source root or
// are malformed are refused, the person is told which and why, and the
// default stands.
func TestScopeGlobsRefusedSaid(t *testing.T) {
	s := newSrcSession(t, 0, "", map[string]any{"lreview": map[string]any{"reviews": []string{"../**/*.review.json", "/etc/**"}}})
	s.c.waitMessage(`"../**/*.review.json" is ignored`, "leaves the source root")
	s.c.waitMessage(`"/etc/**" is ignored`, "not absolute")
	s.c.waitMessage("no glob is usable", "**/*.review.json")
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.waitFor(s.source, "the default glob's review", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
}

// rewrite writes text to name with a modification time an hour ahead,
// so that no file system's coarse clock hides the change.
func rewrite(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
}

// TestScopeReviewOnDiskPolled: a client that registers no file watchers
// (Neovim on Linux) sees a review in scope change on disk, a review
// created beside it, and one deleted, as the README says: the poller
// looks at the reviews and their directories.
func TestScopeReviewOnDiskPolled(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{Poll: 10 * time.Millisecond})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	s := &srcSession{t: t, c: c, root: root, review: review, source: protocol.DocumentURI(uri.File(filepath.Join(root, "internal", "api", "handler.go")))}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.waitFor(s.source, "the review's comments", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	walks := func() int {
		sc := c.srv.wt.scan
		sc.mu.Lock()
		defer sc.mu.Unlock()
		return sc.walks
	}
	before := walks()
	rewrite(t, review, strings.Replace(testreviews.WorktreeReview, "Return the error 🚀.", "Wrap the error.", 1))
	s.waitFor(s.source, "the review changed on disk", func(p publishedDiagnostics) bool {
		return slices.ContainsFunc(summary(p.Diagnostics), func(d string) bool { return strings.HasSuffix(d, "c1: Wrap the error.") })
	})
	second := filepath.Join(root, "reviews", "second.review.json")
	rewrite(t, second, secondReview)
	s.waitFor(s.source, "a review created on disk", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 3 })
	if err := os.Remove(second); err != nil {
		t.Fatal(err)
	}
	s.waitFor(s.source, "a review deleted on disk", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	if got := walks(); got != before {
		t.Errorf("the tree was walked %d times again for three review files", got-before)
	}
}

// TestScopeReviewChangeReadAlone: a client's file event for a review
// has that review read again, and the tree is not walked again for it.
func TestScopeReviewChangeReadAlone(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}
	initializeIn(c, root, caps, nil)
	s := &srcSession{t: t, c: c, root: root, review: review, source: protocol.DocumentURI(uri.File(filepath.Join(root, "internal", "api", "handler.go")))}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.waitFor(s.source, "the review's comments", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	s.idle()
	sc := c.srv.wt.scan
	sc.mu.Lock()
	before := sc.walks
	sc.mu.Unlock()
	second := filepath.Join(root, "reviews", "second.review.json")
	rewrite(t, second, secondReview)
	c.notifyServer("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": uri.File(second), "type": 1}}})
	s.waitFor(s.source, "the review created", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 3 })
	rewrite(t, review, strings.Replace(testreviews.WorktreeReview, "Return the error 🚀.", "Wrap the error.", 1))
	c.notifyServer("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": uri.File(review), "type": 2}}})
	s.waitFor(s.source, "the review changed", func(p publishedDiagnostics) bool {
		return slices.ContainsFunc(summary(p.Diagnostics), func(d string) bool { return strings.Contains(d, "c1: Wrap the error.") })
	})
	s.idle()
	sc.mu.Lock()
	after := sc.walks
	sc.mu.Unlock()
	if after != before {
		t.Errorf("the tree was walked %d times again for two review files", after-before)
	}
}

// TestScopeHoverWaitsForFirstScan: a hover and the code actions on a
// source file asked while the first walk runs wait for it and answer
// with the thread, rather than null.
func TestScopeHoverWaitsForFirstScan(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{})
	release := make(chan struct{})
	c.srv.wt.scan.beforeWalk = func() { <-release }
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	s := &srcSession{t: t, c: c, root: root, review: review, source: protocol.DocumentURI(uri.File(filepath.Join(root, "internal", "api", "handler.go")))}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	type answer struct {
		hover   *protocol.Hover
		actions []protocol.CodeAction
	}
	answered := make(chan answer, 1)
	go func() {
		var a answer
		c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.source}, "position": protocol.Position{Line: 71, Character: 4}}, &a.hover)
		c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": s.source}, "range": protocol.Range{Start: protocol.Position{Line: 71}, End: protocol.Position{Line: 71}}, "context": map[string]any{"diagnostics": []any{}}}, &a.actions)
		answered <- a
	}()
	// The hover is in the server (a request in flight) before the walk
	// is let go, or has been answered already.
	for deadline := time.Now().Add(10 * time.Second); ; {
		c.srv.mu.Lock()
		n := len(c.srv.inflight)
		c.srv.mu.Unlock()
		if n > 0 || len(answered) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	a := <-answered
	if a.hover == nil || !strings.Contains(a.hover.Contents.Value, "Return the error 🚀.") {
		t.Errorf("hover during the first walk: got %s, want c1's thread", jsonOf(t, a.hover))
	}
	if !slices.ContainsFunc(a.actions, func(ca protocol.CodeAction) bool { return strings.HasPrefix(ca.Title, "Reply to c1") }) {
		t.Errorf("code actions during the first walk: got %s, want Reply to c1", jsonOf(t, a.actions))
	}
}

// TestScopeNewReviewNestedRoots pins the root a review created on disk
// is matched against when the roots nest: each root it is under, as the
// walk matches it. "x/*.review.json" matches inner/x/new.review.json
// under the inner root, not under the outer one, which the poller looks
// at first and where it sees the directory change: the review is found
// all the same. The review is created right after the walk, as a person
// may create one, which the poller sees whatever the file system clock's
// resolution (stampSlack: without it, this failed about once in forty
// runs).
func TestScopeNewReviewNestedRoots(t *testing.T) {
	outer := t.TempDir()
	inner := filepath.Join(outer, "inner")
	dir := filepath.Join(inner, "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.review.json")
	if err := os.WriteFile(old, []byte(secondReview), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewServer(Options{})
	s.settings.Reviews = []string{"x/*.review.json"}
	s.wt.folders = []string{outer, inner}
	disk := s.diskReviews
	s.scanReviews(t.Context())
	if disk()[old] == nil {
		t.Fatalf("the walk did not find %s: %v", old, disk())
	}
	created := filepath.Join(dir, "new.review.json")
	rewrite(t, created, secondReview)
	s.pollScope(newScopePoll())
	for deadline := time.Now().Add(10 * time.Second); disk()[created] == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the poller did not find %s, created under both roots: %v", created, disk())
		}
	}
}
