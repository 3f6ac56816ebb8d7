package visual

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/leanreview/lreview-lsp/internal/branch"
)

// The Flutter renderer: the use cases rendered by `flutter test` in two
// work trees made in a temporary directory and removed after — head, a
// bounded copy of the working tree; base, a copy of head with the
// patch's files put back as their old side — each with a generated test
// (HarnessFile) in the Widgetbook app's package that pumps every use
// case and writes its golden image. Nothing is written into the
// person's repository: git is only read (branch.Run, cat-file), and the
// flutter commands run in the copies.

// DefaultTimeout bounds one side's flutter run (pub get and test): a
// cold test run of a Widgetbook app takes a minute or two.
const DefaultTimeout = 5 * time.Minute

// HarnessFile is the generated test, in the app's package of each work
// tree; its goldens are written beside it, under goldens/.
const HarnessFile = "test/lreview_golden/lreview_golden_test.dart"

const (
	// maxOutput bounds the flutter output kept for the error message.
	maxOutput = 8 << 10
	// maxMemo bounds the renders kept.
	maxMemo = 8
)

// Flutter renders with the flutter command, keeping each job's images
// (or its error) by the job's key: the same inputs are never rendered
// twice. Its methods may be called concurrently.
type Flutter struct {
	// Timeout bounds one side's run; 0: DefaultTimeout.
	Timeout time.Duration
	// Git reads the old blobs; nil: branch.Run (read-only).
	Git branch.Git

	mu    sync.Mutex
	memo  map[string]rendered
	order []string
}

type rendered struct {
	base, head map[string][]byte
	err        error
}

// NewFlutter is a renderer with the default timeout.
func NewFlutter() *Flutter { return &Flutter{} }

// Cached is the render kept for key, if any.
func (f *Flutter) Cached(key string) (base, head map[string][]byte, err error, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.memo[key]
	return r.base, r.head, r.err, ok
}

// Render renders the job's use cases on both sides, or answers from the
// memo. A render the caller cancelled is not kept; one that failed or
// timed out is (the same inputs would fail again).
func (f *Flutter) Render(ctx context.Context, job *Job) (base, head map[string][]byte, err error) {
	if base, head, err, ok := f.Cached(job.Key); ok {
		return base, head, err
	}
	base, head, err = f.render(ctx, job)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.memo == nil {
		f.memo = map[string]rendered{}
	}
	if _, ok := f.memo[job.Key]; !ok {
		if len(f.order) == maxMemo {
			delete(f.memo, f.order[0])
			f.order = f.order[1:]
		}
		f.order = append(f.order, job.Key)
	}
	f.memo[job.Key] = rendered{base, head, err}
	return base, head, err
}

func (f *Flutter) render(ctx context.Context, job *Job) (base, head map[string][]byte, err error) {
	tmp, err := os.MkdirTemp("", "lreview-golden-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	var roots [2]*os.Root
	for i, side := range []string{"head", "base"} {
		if err := os.Mkdir(filepath.Join(tmp, side), 0o700); err != nil {
			return nil, nil, err
		}
		if roots[i], err = os.OpenRoot(filepath.Join(tmp, side)); err != nil {
			return nil, nil, err
		}
		defer roots[i].Close()
	}
	headRoot, baseRoot := roots[0], roots[1]
	if err := copyTree(ctx, job.Tree.Files().FS(), headRoot); err != nil {
		return nil, nil, err
	}
	if err := copyTree(ctx, headRoot.FS(), baseRoot); err != nil {
		return nil, nil, err
	}
	git := f.Git
	if git == nil {
		git = branch.Run
	}
	read := func(args ...string) ([]byte, error) { return git(ctx, job.Tree.Root(), args...) }
	if err := putBack(read, baseRoot, job.Patch); err != nil {
		return nil, nil, err
	}
	if base, err = f.side(ctx, job, "base", baseRoot); err != nil {
		return nil, nil, err
	}
	if head, err = f.side(ctx, job, "head", headRoot); err != nil {
		return nil, nil, err
	}
	return base, head, nil
}

var errTimeout = errors.New("timed out")

// side renders the use cases the work tree root holds: the generated
// test written, `flutter pub get --offline` and `flutter test --no-pub
// --update-goldens` run in its app, the images read back by use-case
// name. A side without use cases renders nothing.
func (f *Flutter) side(ctx context.Context, job *Job, name string, root *os.Root) (map[string][]byte, error) {
	var cases []UseCase
	seen := map[string]bool{}
	for _, file := range job.Files {
		text, err := readIn(root, file, maxRead)
		if err != nil {
			continue // absent on this side
		}
		for _, uc := range useCases(string(text), file, job.Components) {
			if !seen[uc.Name] {
				seen[uc.Name] = true
				cases = append(cases, uc)
			}
		}
	}
	out := map[string][]byte{}
	if len(cases) == 0 {
		return out, nil
	}
	test, err := harness(job, cases)
	if err != nil {
		return nil, err
	}
	app := path.Clean(job.App)
	file := path.Join(app, HarnessFile)
	if err := root.MkdirAll(path.Dir(file), 0o755); err != nil {
		return nil, err
	}
	if err := root.WriteFile(file, []byte(test), 0o644); err != nil {
		return nil, err
	}
	timeout := f.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	dir := filepath.Join(root.Name(), filepath.FromSlash(app))
	for _, args := range [][]string{{"pub", "get", "--offline"}, {"test", "--no-pub", "--update-goldens", HarnessFile}} {
		if err := run(ctx, dir, job.Flutter, args...); err != nil {
			if errors.Is(context.Cause(ctx), errTimeout) {
				return nil, fmt.Errorf("the %s side: flutter %s did not finish in %v", name, strings.Join(args, " "), timeout)
			}
			return nil, fmt.Errorf("the %s side: %v", name, err)
		}
	}
	for i, uc := range cases {
		png := path.Join(path.Dir(file), "goldens", fmt.Sprintf("%d.png", i))
		data, err := readIn(root, png, maxPNG)
		if err != nil {
			return nil, fmt.Errorf("the %s side: flutter test wrote no golden image of %s: %v", name, uc.Name, err)
		}
		out[uc.Name] = data
	}
	return out, nil
}

// maxPNG bounds a golden image read back.
const maxPNG = 32 << 20

// readIn reads the file p of root, at most limit bytes.
func readIn(root *os.Root, p string, limit int64) ([]byte, error) {
	fh, err := root.Open(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: larger than %d bytes", p, limit)
	}
	return data, err
}

// harness is the generated test of cases: each use case's function
// pumped in a MaterialApp, inside a keyed RepaintBoundary whose image is
// its golden, goldens/<i>.png. Its only names from the repository are
// identifiers (the regexps') and paths checked to be plain.
func harness(job *Job, cases []UseCase) (string, error) {
	var b strings.Builder
	b.WriteString("// Generated by lreview-lsp in a temporary copy of the working tree, never\n" +
		"// in the repository: the golden images of the use cases a review changes.\n" +
		"import 'package:flutter/material.dart';\nimport 'package:flutter_test/flutter_test.dart';\n\n")
	alias := map[string]string{}
	for _, uc := range cases {
		if _, ok := alias[uc.File]; ok {
			continue
		}
		if strings.ContainsAny(uc.File, "'\"\\$\n\r") {
			return "", fmt.Errorf("%s: a file name the generated test cannot import", uc.File)
		}
		alias[uc.File] = fmt.Sprintf("uc%d", len(alias))
		fmt.Fprintf(&b, "import '%s' as %s;\n", importURI(job, uc.File), alias[uc.File])
	}
	b.WriteString("\nvoid main() {\n  const key = ValueKey<String>('lreview_golden');\n")
	for i, uc := range cases {
		fmt.Fprintf(&b, "  testWidgets('lreview golden %d', (tester) async {\n", i)
		fmt.Fprintf(&b, "    await tester.pumpWidget(MaterialApp(debugShowCheckedModeBanner: false, home: RepaintBoundary(key: key, child: Builder(builder: %s.%s))));\n", alias[uc.File], uc.Function)
		fmt.Fprintf(&b, "    await expectLater(find.byKey(key), matchesGoldenFile('goldens/%d.png'));\n  });\n", i)
	}
	b.WriteString("}\n")
	return b.String(), nil
}

// importURI is how the generated test imports the app's file: by its
// package when it is under the app's lib/, else relative to the test.
func importURI(job *Job, file string) string {
	rel := file
	if app := path.Clean(job.App); app != "." {
		rel = strings.TrimPrefix(file, app+"/")
	}
	if lib, ok := strings.CutPrefix(rel, "lib/"); ok && job.Package != "" {
		return "package:" + job.Package + "/" + lib
	}
	return strings.Repeat("../", strings.Count(HarnessFile, "/")) + rel
}

// run runs the flutter command in dir, its output kept (the last
// maxOutput bytes) for the error.
func run(ctx context.Context, dir, flutter string, args ...string) error {
	cmd := exec.CommandContext(ctx, flutter, args...)
	cmd.Dir = dir
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	group(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("flutter %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out.b)))
	}
	return nil
}

// tail keeps the last maxOutput bytes written.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - maxOutput; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}
