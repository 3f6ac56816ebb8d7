package worktree

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// MaxFileSize is the largest file read: anything larger is not source a
// person reviews line by line.
const MaxFileSize = 16 << 20

// Errors of Read for files that are ignored.
var (
	ErrTooLarge   = fmt.Errorf("larger than %d MB", MaxFileSize>>20)
	ErrBinary     = errors.New("a binary file")
	ErrNotRegular = filewrite.ErrNotRegular
)

// File is a working-tree file as it was read. It never changes: a newer
// copy on disk is a new File.
type File struct {
	// Path is the path the review names it by; Abs the file read.
	Path, Abs string
	// Text is the file's content.
	Text string
	// Size and ModTime are what the file's stat said when it was read.
	Size    int64
	ModTime time.Time
	// stamp is all the stat said of this version (stampOf).
	stamp stamp
	// lines are the texts of its lines without their terminators
	// (a "\r" before "\n" dropped); starts the offset of each in Data.
	lines  []string
	starts []int
	// CRLF is set when the file's first line ends with "\r\n": edits
	// written into it end their lines the same way.
	CRLF bool

	textOnce sync.Once
	text     *anchor.Text
	mapOnce  sync.Once
	mapper   *exchange.Mapper
	// tracks remember where each file diff's RIGHT lines are in this
	// file (anchor.LineTrack), and holding whether it holds a file diff's
	// lines. The File owns them: they go when the file is read again or
	// leaves the tree's cache (cache.put), and each is bounded (memo).
	// A buffer's are carried from the buffer's earlier version through
	// the editor's edits (Tree.EditedBuffer).
	tracks  memo[*anchor.FileDiff, *anchor.LineTrack]
	holding memo[*anchor.FileDiff, bool]
}

// Mapper converts the file's byte offsets to positions, made on first use.
func (f *File) Mapper() *exchange.Mapper {
	f.mapOnce.Do(func() { f.mapper = exchange.NewMapper([]byte(f.Text)) })
	return f.mapper
}

// Lines is the number of lines of the file.
func (f *File) Lines() int { return len(f.lines) }

// Line is the text of line n (from 1), without its terminator.
func (f *File) Line(n int) string { return f.lines[n-1] }

// LineStart is the byte offset of line n (from 1) in Text; n one past
// the last line is the end of the file.
func (f *File) LineStart(n int) int {
	if n > len(f.lines) {
		return len(f.Text)
	}
	return f.starts[n-1]
}

// LineEnd is the byte offset of the end of line n's text (before its
// terminator).
func (f *File) LineEnd(n int) int { return f.starts[n-1] + len(f.lines[n-1]) }

// track is where f's RIGHT lines are in the file, made on first use by
// a line diff against them (anchor.TrackLines) unless carried from an
// earlier version of a buffer.
func (f *File) track(p *exchange.Patch, fd *anchor.FileDiff) *anchor.LineTrack {
	if tr, ok := f.tracks.load(fd); ok {
		return tr
	}
	tr := anchor.TrackLines(p, fd, f.lines, f.starts)
	f.tracks.store(fd, tr)
	return tr
}

// Search is the file's text for the drift search, indexed on first use.
func (f *File) Search() *anchor.Text {
	f.textOnce.Do(func() { f.text = anchor.NewText(f.lines) })
	return f.text
}

// Newline is the line terminator the file uses.
func (f *File) Newline() string {
	if f.CRLF {
		return "\r\n"
	}
	return "\n"
}

// Read returns the file the review's path names, as it is on disk now:
// stat on every call, read again only when its size or modification time
// changed since it was last read.
func (t *Tree) Read(path string) (*File, error) {
	if t.reads == nil {
		return t.read(path)
	}
	t.reads.mu.Lock()
	r, ok := t.reads.m[path]
	t.reads.mu.Unlock()
	if !ok {
		r.f, r.err = t.read(path)
		t.reads.mu.Lock()
		t.reads.m[path] = r
		t.reads.mu.Unlock()
	}
	return r.f, r.err
}

func (t *Tree) read(path string) (*File, error) {
	fh, fi, err := t.open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	abs := t.name(path)
	st := stampOf(fi)
	f, verify := t.cache.get(abs, st)
	if f != nil && f.Path == path && !verify {
		return f, nil
	}
	readAt := time.Now()
	data, err := readText(path, fh, fi)
	if err != nil {
		return nil, err
	}
	if f != nil && f.Path == path && data == f.Text {
		// A racy stamp (racyWindow) checked against the content: the
		// same. Once the window is past, the stamp alone will do.
		if !st.racy(readAt) {
			t.cache.settle(abs, f)
		}
		return f, nil
	}
	f = &File{Path: path, Abs: abs, Text: data, Size: fi.Size(), ModTime: fi.ModTime(), stamp: st}
	f.split()
	t.cache.put(abs, f, st.racy(readAt))
	return f, nil
}

// readText reads fh, the file at path whose stat said fi: text of at
// most MaxFileSize bytes.
func readText(path string, fh *os.File, fi os.FileInfo) (string, error) {
	// Read into a builder, whose String is the text without a copy;
	// room for the size stat said and one byte more, to see a file that
	// grew past the limit meanwhile.
	var b strings.Builder
	b.Grow(int(min(fi.Size(), MaxFileSize)) + 1)
	if _, err := io.Copy(&b, io.LimitReader(fh, MaxFileSize+1)); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	data := b.String()
	if len(data) > MaxFileSize {
		return "", fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	if strings.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", fmt.Errorf("%s: %w", path, ErrBinary)
	}
	return data, nil
}

// split fills lines and starts. A final line without a terminator is a
// line; the empty text after a final terminator is not.
func (f *File) split() {
	s := f.Text
	n := strings.Count(s, "\n") + 1
	f.lines, f.starts = make([]string, 0, n), make([]int, 0, n)
	for at := 0; at < len(s); {
		end := len(s)
		next := end
		if i := strings.IndexByte(s[at:], '\n'); i >= 0 {
			end, next = at+i, at+i+1
		}
		line := s[at:end]
		if next != end && len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
			if len(f.lines) == 0 {
				f.CRLF = true
			}
		}
		f.lines, f.starts = append(f.lines, line), append(f.starts, at)
		at = next
	}
}

// stamp is what a file's stat says of one version of it. Besides the
// size and the modification time, which a writer can set back (`touch
// -d`, utimes), it holds the device, the inode (a file replaced by a
// rename) and the status-change time, which every write moves and no
// call sets back: a file rewritten with the same size, inode and
// modification time is still seen as changed, at no cost beyond the
// stat the cache makes anyway (BenchmarkCacheCheck compares it with
// hashing the content). Where the system reports no inode or change time
// (Windows) they are 0, and the size and time decide.
//
// A stamp taken within racyWindow of a change is racy: the system's
// clock for file times is coarse (a tick of a few milliseconds for the
// change time on Linux, a second or two on some file systems), so a
// second write in the same tick leaves the same stamp. A file read while
// its stamp is racy is compared by content on each read, as git does for
// its index, until a read after the window.
type stamp struct {
	size, mtimeNs, ctimeNs int64
	dev, ino               uint64
}

// racyWindow is the coarsest grain of file times the cache allows for
// (FAT's two seconds).
const racyWindow = 2 * time.Second

// racy reports whether a read at `at` may not tell a later write in the
// same tick from this version.
func (st stamp) racy(at time.Time) bool {
	return at.UnixNano()-max(st.mtimeNs, st.ctimeNs) < int64(racyWindow)
}

func stampOf(fi os.FileInfo) stamp {
	st := stamp{size: fi.Size(), mtimeNs: fi.ModTime().UnixNano()}
	st.dev, st.ino, st.ctimeNs = sysStamp(fi)
	return st
}

// cache holds the files read, by absolute path, with the stamp they were
// read at: a file is its path and its stamp (its identity), read again
// when it changed. It is bounded by the
// text it keeps, maxCachedText: past it, the files least recently asked
// for are dropped, with what their memos found in them.
type cache struct {
	mu    sync.Mutex
	files map[string]*cached
	size  int    // bytes of text kept
	clock uint64 // counts gets and puts: when each file was last asked for
}

type cached struct {
	f    *File
	used uint64
	racy bool // read within racyWindow of its stamp: compare the content
}

// maxCachedText bounds the text the cache keeps: four files of the
// largest size read, hundreds of ordinary source files.
const maxCachedText = 4 * MaxFileSize

func newCache() *cache {
	return &cache{files: map[string]*cached{}}
}

// get returns the file kept for abs when its stamp is st, and whether
// its content must be compared first (read while racy, not settled).
func (c *cache) get(abs string, st stamp) (*File, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.files[abs]; e != nil && e.f.stamp == st {
		c.clock++
		e.used = c.clock
		return e.f, e.racy
	}
	return nil, false
}

// settle marks f, kept for abs, as compared after its racy window: its
// stamp alone tells from now on.
func (c *cache) settle(abs string, f *File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.files[abs]; e != nil && e.f == f {
		e.racy = false
	}
}

// put keeps f, replacing the file read before at its path, and drops
// the least recently asked for files while the text kept is over the
// bound (never f itself).
func (c *cache) put(abs string, f *File, racy bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.files[abs]; old != nil {
		c.size -= len(old.f.Text)
	}
	c.clock++
	c.files[abs] = &cached{f: f, used: c.clock, racy: racy}
	c.size += len(f.Text)
	for c.size > maxCachedText {
		var lru string
		for name, e := range c.files {
			if name != abs && (lru == "" || e.used < c.files[lru].used) {
				lru = name
			}
		}
		if lru == "" {
			return
		}
		c.size -= len(c.files[lru].f.Text)
		delete(c.files, lru)
	}
}

// memoGeneration bounds a memo: a patch edited over a long session makes
// new file diffs, and the keys of the old ones must not pile up.
const memoGeneration = 1024

// memo is a map safe for concurrent use, kept in two generations: when
// the newer holds memoGeneration entries it becomes the older, and the
// older is dropped; a value found in the older is carried into the
// newer. So a memo holds at most 2×memoGeneration entries, and an entry
// stays while it is asked for at least once per memoGeneration stores.
type memo[K comparable, V any] struct {
	mu       sync.Mutex
	cur, old map[K]V
}

func (m *memo[K, V]) load(k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.cur[k]; ok {
		return v, true
	}
	v, ok := m.old[k]
	if ok {
		m.storeLocked(k, v)
	}
	return v, ok
}

// each calls fn with every entry.
func (m *memo[K, V]) each(fn func(K, V)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range m.old {
		if _, ok := m.cur[k]; !ok {
			fn(k, v)
		}
	}
	for k, v := range m.cur {
		fn(k, v)
	}
}

func (m *memo[K, V]) store(k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.storeLocked(k, v)
}

func (m *memo[K, V]) storeLocked(k K, v V) {
	if len(m.cur) >= memoGeneration {
		m.old, m.cur = m.cur, nil
	}
	if m.cur == nil {
		m.cur = map[K]V{}
	}
	m.cur[k] = v
}
