package reviewfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

func smallReview() []byte {
	return reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 300, Comments: 12, Seed: 7})
}

// rootWith is a directory holding files, opened as a root.
func rootWith(t *testing.T, files map[string][]byte) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	for n, data := range files {
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

// rewriteInPlace writes data over name, keeping its inode and setting its
// modification time back to what it was.
func rewriteInPlace(t *testing.T, name string, data []byte) {
	t.Helper()
	before, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func TestReadInSameIdentityIsSameVersion(t *testing.T) {
	src := smallReview()
	root, dir := rootWith(t, map[string][]byte{"a.review.json": src})
	v1, err := ReadIn(root, "a.review.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v1.Bytes(), src) {
		t.Fatalf("read %d bytes, want the file's %d", len(v1.Bytes()), len(src))
	}
	v2, err := ReadIn(root, "a.review.json", v1)
	if err != nil {
		t.Fatal(err)
	}
	if v2 != v1 {
		t.Errorf("a read of an unchanged file made a new version, want the one read before")
	}
	// A new file in the name's place (a save by rename): a new inode.
	name := filepath.Join(dir, "a.review.json")
	if err := os.WriteFile(name+".tmp", append(bytes.Clone(src), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(name+".tmp", name); err != nil {
		t.Fatal(err)
	}
	v3, err := ReadIn(root, "a.review.json", v1)
	if err != nil {
		t.Fatal(err)
	}
	if v3 == v1 || len(v3.Bytes()) != len(src)+1 {
		t.Errorf("after a save: got the old version (%v) or %d bytes, want a new version of %d", v3 == v1, len(v3.Bytes()), len(src)+1)
	}
}

// TestHeldBytesDecide: a rewrite in place of the same size with the
// modification time set back keeps the identity; a caller holding the
// new bytes gets a new version, one that only stats gets the cached one
// (the rule Version.Current documents).
func TestHeldBytesDecide(t *testing.T) {
	src := smallReview()
	root, dir := rootWith(t, map[string][]byte{"a.review.json": src})
	c := NewCache(4)
	v1, err := c.ReadIn(root, "a.review.json", "a")
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Clone(src)
	i := bytes.Index(changed, []byte(`"body": "`)) + len(`"body": "`)
	changed[i] ^= 0x20 // the case of one letter: same size
	rewriteInPlace(t, filepath.Join(dir, "a.review.json"), changed)
	fi, err := os.Stat(filepath.Join(dir, "a.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	if IDOf(fi) != v1.ID() {
		t.Skipf("the file system changed the identity (%+v, was %+v): nothing to test", IDOf(fi), v1.ID())
	}
	if v, _ := c.ReadIn(root, "a.review.json", "a"); v != v1 {
		t.Errorf("by identity alone: got a new version, want the cached one")
	}
	v2 := c.Held("a", IDOf(fi), changed)
	if v2 == v1 || !bytes.Equal(v2.Bytes(), changed) {
		t.Fatalf("with the new bytes held: got the cached version, want a new one")
	}
	if got := c.Held("a", IDOf(fi), changed); got != v2 {
		t.Errorf("the same bytes again: got a new version, want the one cached")
	}
	if got := c.Get("a"); got != v2 {
		t.Errorf("the cache holds %p, want the new version %p", got, v2)
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := NewCache(2)
	a, b, d := New(ID{Size: 1}, []byte("a")), New(ID{Size: 2}, []byte("b")), New(ID{Size: 3}, []byte("d"))
	c.Put("a", a)
	c.Put("b", b)
	if c.Get("a") != a { // a is now the most recently used
		t.Fatal("a not cached")
	}
	c.Put("d", d)
	if got := c.Get("b"); got != nil {
		t.Errorf("b, used least recently, is still cached")
	}
	if c.Get("a") != a || c.Get("d") != d {
		t.Errorf("a or d evicted, want b evicted")
	}
	c.Put("a", d) // replacing an entry evicts nothing
	if c.Get("d") != d || c.Get("a") != d {
		t.Errorf("replacing a's version evicted an entry")
	}
}

func TestReadInRefusals(t *testing.T) {
	root, dir := rootWith(t, nil)
	if err := os.Mkdir(filepath.Join(dir, "d.review.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(filewrite.MaxSize + 1); err != nil { // sparse: no 64 MB written
		t.Fatal(err)
	}
	big.Close()
	for _, tc := range []struct {
		name string
		want error
	}{
		{"d.review.json", filewrite.ErrNotRegular},
		{"big.review.json", filewrite.ErrTooLarge},
		{"missing.review.json", os.ErrNotExist},
	} {
		c := NewCache(2)
		c.Put(tc.name, New(ID{}, nil))
		v, err := c.ReadIn(root, tc.name, tc.name)
		if v != nil || !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, %v; want an error wrapping %q", tc.name, v, err, tc.want)
		}
		if err != nil && !bytes.Contains([]byte(err.Error()), []byte(tc.name)) {
			t.Errorf("%s: the error %q does not name the file", tc.name, err)
		}
		if c.Get(tc.name) != nil {
			t.Errorf("%s: still cached after a failed read", tc.name)
		}
	}
}

func TestAnalysisCancelledThenMade(t *testing.T) {
	v := New(ID{}, smallReview())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if an, err := v.Analysis(ctx); an != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v, %v; want context.Canceled", an, err)
	}
	an, err := v.Analysis(context.Background())
	if err != nil || an == nil {
		t.Fatalf("after a cancelled call: got %v, %v; want the analysis", an, err)
	}
	if again, _ := v.Analysis(context.Background()); again != an {
		t.Errorf("a second call made the analysis again")
	}
	if an.Doc != v.Document() {
		t.Errorf("the analysis is of another document than Document's")
	}
}

// TestAnalysisWaitsCancellable: a call waiting for another's analysis
// leaves when its context ends.
func TestAnalysisWaitsCancellable(t *testing.T) {
	v := New(ID{}, smallReview())
	v.turn <- struct{}{} // another call is analysing
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := v.Analysis(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's error", err)
	}
	<-v.turn
}

// TestEditedCarriesForward: a version written by one edit of an analysed
// one is analysed as an edit, to what a parse and check from scratch
// finds.
func TestEditedCarriesForward(t *testing.T) {
	src := smallReview()
	v1 := New(ID{Size: 1}, src)
	if _, err := v1.Analysis(context.Background()); err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(src, []byte(`"body": "`)) + len(`"body": "`)
	edited := append(append(bytes.Clone(src[:i]), "Edited. "...), src[i:]...)
	v2 := v1.Edited(ID{Size: 2}, edited, exchange.Change{Prefix: i, Suffix: len(src) - i})
	got, err := v2.Analysis(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := Analyze(context.Background(), exchange.NewText(edited), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnostics) != len(want.Diagnostics) || len(got.Doc.Review.Comments) != len(want.Doc.Review.Comments) {
		t.Errorf("as an edit: %d diagnostics, %d comments; from scratch: %d, %d",
			len(got.Diagnostics), len(got.Doc.Review.Comments), len(want.Diagnostics), len(want.Doc.Review.Comments))
	}
	if body := got.Doc.Review.Comments[0].Body; !bytes.HasPrefix([]byte(body), []byte("Edited. ")) && len(want.Doc.Review.Comments) > 0 && want.Doc.Review.Comments[0].Body != body {
		t.Errorf("the first comment's body is %q, want %q", body, want.Doc.Review.Comments[0].Body)
	}
	if len(got.Index.Files) == 0 || &got.Index.Files[0] != &v1.Analysed().Index.Files[0] { // shared when the index is carried
		t.Errorf("the patch is unchanged but its index was built again")
	}
	if v2.prev != nil {
		t.Errorf("the version written from is still held after the analysis")
	}
}

// TestAnalysisSharedByConcurrentCalls: calls at once get one analysis,
// made once (run under -race by make test-race).
func TestAnalysisSharedByConcurrentCalls(t *testing.T) {
	v1 := New(ID{Size: 1}, smallReview())
	if _, err := v1.Analysis(context.Background()); err != nil {
		t.Fatal(err)
	}
	src := v1.Bytes()
	v := v1.Edited(ID{Size: 2}, append(bytes.Clone(src), '\n'), exchange.Change{Prefix: len(src)})
	got := make(chan any, 8)
	for range 8 {
		go func() {
			an, err := v.Analysis(context.Background())
			if err != nil {
				got <- err
				return
			}
			got <- an
		}()
	}
	first := <-got
	for range 7 {
		if an := <-got; an != first {
			t.Fatalf("concurrent calls got %v and %v, want one analysis", first, an)
		}
	}
	if v.Analysed() != first {
		t.Errorf("Analysed is %p, want the analysis made", v.Analysed())
	}
}

// TestWrittenVersionIsCurrent: the identity filewrite reports for what
// Replace wrote is the one the next read finds, so the version a writer
// caches serves the next read without reading the file again.
func TestWrittenVersionIsCurrent(t *testing.T) {
	src := smallReview()
	root, _ := rootWith(t, map[string][]byte{"a.review.json": src})
	o, err := filewrite.ReadIn(root, "a.review.json")
	if err != nil {
		t.Fatal(err)
	}
	read := New(IDOf(o.Info()), o.Data)
	if v, err := ReadIn(root, "a.review.json", read); err != nil || v != read {
		t.Fatalf("the version read from Original.Info is not current: %v, %v", v, err)
	}
	data := append(bytes.Clone(src), '\n')
	if err := o.Replace(data); err != nil {
		t.Fatal(err)
	}
	written := read.Edited(IDOf(o.Written()), data, exchange.Change{Prefix: len(src)})
	v, err := ReadIn(root, "a.review.json", written)
	if err != nil {
		t.Fatal(err)
	}
	if v != written {
		t.Errorf("the file read after the write has identity %+v, the write reported %+v", v.ID(), written.ID())
	}
}
