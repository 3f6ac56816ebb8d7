package codegraph

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Limits bound a build. The defaults are in DefaultLimits and the README.
type Limits struct {
	// Files is the most source files read; Entries the most directory
	// entries visited.
	Files, Entries int
	// FileBytes is the largest file read; larger ones are left out.
	FileBytes int64
	// TotalBytes is the most bytes read in all.
	TotalBytes int64
	// Time is the longest a build runs.
	Time time.Duration
}

// DefaultLimits: a tree of 10,000 source files builds in a few seconds on
// one core; these leave room for five times that and stop a hostile tree.
var DefaultLimits = Limits{Files: 50_000, Entries: 500_000, FileBytes: 1 << 20, TotalBytes: 512 << 20, Time: 30 * time.Second}

// ErrLimit is wrapped by a build stopped by a limit; the graph built so far
// is still returned, with Truncated saying which.
var ErrLimit = errors.New("code graph limit reached")

// Cache keeps the summaries of files by identity (path, size, modification
// time) between builds. It is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[string]cached
}

type cached struct {
	size int64
	mod  time.Time
	sum  *summary
}

func (c *Cache) get(p string, fi fs.FileInfo) *summary {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[p]
	if !ok || e.size != fi.Size() || !e.mod.Equal(fi.ModTime()) {
		return nil
	}
	return e.sum
}

func (c *Cache) put(p string, fi fs.FileInfo, s *summary) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cached{}
	}
	c.m[p] = cached{size: fi.Size(), mod: fi.ModTime(), sum: s}
}

// summary is what one file's parse leaves: all a link needs.
type summary struct {
	lang      Lang
	generated bool
	test      bool
	goFile    *goSummary
	script    *scriptSummary
	module    string // go.mod's module path
}

// LanguageOf names path's language by its name, "" for none known.
func LanguageOf(p string) string {
	base := path.Base(p)
	switch base {
	case "go.mod", "go.sum":
		return "go.mod"
	}
	switch path.Ext(base) {
	case ".go":
		return "go"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	case ".py", ".pyi":
		return "python"
	case ".rs":
		return "Rust"
	case ".java":
		return "Java"
	case ".kt", ".kts":
		return "Kotlin"
	case ".c", ".h":
		return "C"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "C++"
	case ".cs":
		return "C#"
	case ".rb":
		return "Ruby"
	case ".php":
		return "PHP"
	case ".swift":
		return "Swift"
	case ".scala":
		return "Scala"
	case ".sh", ".bash":
		return "shell"
	case ".sql":
		return "SQL"
	case ".proto":
		return "Protocol Buffers"
	case ".md", ".txt", ".json", ".yaml", ".yml", ".toml", ".xml", ".html", ".css", ".lock":
		return ""
	}
	return ""
}

func coverageFor(lang string, n int) Coverage {
	switch lang {
	case "go":
		return Coverage{Language: lang, Files: n, Level: "definitions", Note: "Go: definitions and their uses (methods on an untyped receiver are possible uses)"}
	case "typescript", "javascript":
		return Coverage{Language: lang, Files: n, Level: "files", Note: lang + ": files and the names they import (relative imports; no tsconfig paths)"}
	case "python":
		return Coverage{Language: lang, Files: n, Level: "files", Note: "Python: modules and the names they import"}
	}
	return Coverage{Language: lang, Files: n, Level: "paths", Note: "no code graph for " + lang + ": grouped by path"}
}

// skipDir reports whether a directory is left out of the graph: version
// control, dependencies others wrote, build output.
func skipDir(name string) bool {
	if strings.HasPrefix(name, ".") && name != "." {
		return true
	}
	switch name {
	case "node_modules", "vendor", "testdata", "__pycache__", "dist", "build", "target", "venv":
		return true
	}
	return false
}

// Build reads the tree under root and links its graph. cache, when not
// nil, holds summaries of files from an earlier build and receives this
// one's. It returns the graph built so far and an error wrapping ErrLimit
// when a limit stopped it, or ctx's error.
func Build(ctx context.Context, root *os.Root, lim Limits, cache *Cache) (*Graph, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Time)
	defer cancel()
	g := &Graph{files: map[string]*File{}}
	paths, langs, stop := walk(root, lim)
	g.Truncated = stop
	sums := make([]*summary, len(paths))
	var total int64
	var mu sync.Mutex
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range work {
				s, n, cachedHit := readSummary(root, paths[i], lim, cache)
				mu.Lock()
				total += n
				sums[i] = s
				if cachedHit {
					g.Stats.Cached++
				} else if s != nil {
					g.Stats.Parsed++
				} else {
					g.Stats.Skipped++
				}
				mu.Unlock()
			}
		})
	}
	var err error
feed:
	for i := range paths {
		mu.Lock()
		over := total > lim.TotalBytes
		mu.Unlock()
		switch {
		case over:
			g.Truncated = "total bytes"
			break feed
		case ctx.Err() != nil:
			g.Truncated = "time"
			break feed
		}
		work <- i
	}
	close(work)
	wg.Wait()
	g.Stats.Files = len(paths)
	g.Stats.Bytes = total
	link(g, paths, sums)
	for lang, n := range langs {
		g.Coverage = append(g.Coverage, coverageFor(lang, n))
	}
	sort.Slice(g.Coverage, func(i, j int) bool { return g.Coverage[i].Language < g.Coverage[j].Language })
	g.finish()
	if g.Truncated != "" {
		err = errors.Join(ErrLimit, errors.New("stopped at the "+g.Truncated+" limit"))
	}
	if e := context.Cause(ctx); e != nil && !errors.Is(e, context.DeadlineExceeded) {
		err = e
	}
	return g, err
}

// walk lists the source files under root in path order (the graphed
// languages and go.mod), counting every language met.
func walk(root *os.Root, lim Limits) (paths []string, langs map[string]int, stop string) {
	langs = map[string]int{}
	entries := 0
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		entries++
		if entries > lim.Entries {
			stop = "directory entries"
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		lang := LanguageOf(p)
		if lang == "" {
			return nil
		}
		if lang != "go.mod" {
			langs[lang]++
		}
		switch lang {
		case "go", "typescript", "javascript", "python":
		case "go.mod":
			if path.Base(p) != "go.mod" {
				return nil
			}
		default:
			return nil
		}
		if len(paths) >= lim.Files {
			stop = "files"
			return fs.SkipAll
		}
		paths = append(paths, p)
		return nil
	})
	return paths, langs, stop
}

// readSummary reads and parses one file through root, or takes its
// summary from cache; nil for a file left out (too large, unreadable).
func readSummary(root *os.Root, p string, lim Limits, cache *Cache) (*summary, int64, bool) {
	f, err := root.Open(p)
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > lim.FileBytes {
		return nil, 0, false
	}
	if s := cache.get(p, fi); s != nil {
		return s, 0, true
	}
	src, err := io.ReadAll(io.LimitReader(f, lim.FileBytes+1))
	if err != nil || int64(len(src)) > lim.FileBytes {
		return nil, 0, false
	}
	s := parseFile(p, src)
	cache.put(p, fi, s)
	return s, int64(len(src)), false
}

// parseFile summarises src, the text of the file p.
func parseFile(p string, src []byte) *summary {
	switch LanguageOf(p) {
	case "go.mod":
		return &summary{module: modulePath(src)}
	case "go":
		return parseGo(p, src)
	case "typescript", "javascript":
		return parseScript(p, src)
	case "python":
		return parsePython(p, src)
	}
	return nil
}

// IsGenerated reports whether a file's first lines say it is generated.
func IsGenerated(src []byte) bool {
	head := src[:min(len(src), 2048)]
	s := string(head)
	return strings.Contains(s, "Code generated") && strings.Contains(s, "DO NOT EDIT") || strings.Contains(s, "@generated")
}

// modulePath reads the module line of a go.mod.
func modulePath(src []byte) string {
	for line := range strings.Lines(string(src)) {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			return strings.Trim(rest, `"`+"`")
		}
	}
	return ""
}
