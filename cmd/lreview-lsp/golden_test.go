package main

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// update rewrites the expected sections of the golden archives from the
// current output: go test ./cmd/lreview-lsp -run Golden -update
var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// A golden archive (testdata/*.txtar) is one run of the command line:
//
//	-- args --            the arguments, split at white space; $WORK is the run's directory
//	-- stdin --           optional: what standard input holds
//	-- NAME --            any other section is an input file written to $WORK/NAME
//	-- stdout --          expected standard output
//	-- stderr --          expected standard error
//	-- exit --            expected exit status
//	-- out/NAME --        expected content of $WORK/NAME after the run
//
// An input file without an out/ section must come out of the run
// byte for byte as it went in, and the run must leave no other file
// behind (a -w that writes through a temporary file cleans up). The
// archive's comment says what the scenario is about. In outputs the run's
// directory is written $WORK, so that the goldens do not depend on where
// the test runs.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden archives in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runGolden(t, file)
		})
	}
}

// expectedSection reports whether a section holds an expectation, as
// opposed to an input.
func expectedSection(name string) bool {
	return name == "stdout" || name == "stderr" || name == "exit" || strings.HasPrefix(name, "out/")
}

// goldenRun is the result of running one archive.
type goldenRun struct {
	dir            string
	stdout, stderr string
	exit           int
	inputs         map[string][]byte // input files as written
	after          map[string][]byte // every file in dir after the run
}

// runArchive writes the archive's inputs into a fresh directory and runs
// the command line there, in process.
func runArchive(t *testing.T, ar *txtar.Archive) *goldenRun {
	t.Helper()
	dir := t.TempDir()
	r := &goldenRun{dir: dir, inputs: map[string][]byte{}}
	var args []string
	var stdin []byte
	haveArgs := false
	for _, f := range ar.Files {
		switch {
		case f.Name == "args":
			haveArgs = true
			for _, a := range strings.Fields(string(f.Data)) {
				args = append(args, strings.ReplaceAll(a, "$WORK", dir))
			}
		case f.Name == "stdin":
			stdin = f.Data
		case expectedSection(f.Name):
		default:
			path := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			r.inputs[f.Name] = f.Data
		}
	}
	if !haveArgs {
		t.Fatal("the archive has no args section")
	}
	var stdout, stderr bytes.Buffer
	r.exit = run(args, bytes.NewReader(stdin), &stdout, &stderr)
	r.stdout = versionPlaceholder(strings.ReplaceAll(stdout.String(), dir, "$WORK"))
	r.stderr = strings.ReplaceAll(stderr.String(), dir, "$WORK")
	r.after = readTree(t, dir)
	return r
}

// versionPlaceholder writes $VERSION where the output says the binary's
// version (`version`'s line, SARIF's tool version), which changes with
// every commit, Go release and platform; TestBuildVersion and
// TestVersionReportedEverywhere check what it says.
func versionPlaceholder(s string) string {
	s = strings.ReplaceAll(s, "lreview-lsp "+versionLine(version, readBuildInfo())+"\n", "lreview-lsp $VERSION\n")
	return strings.ReplaceAll(s, `"version": "`+sarifVersion(version)+`"`, `"version": "$VERSION"`)
}

// readTree reads every regular file under dir, by slash-separated name.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := runArchive(t, ar)

	// Files the run wrote or left behind, as the expected out/ sections.
	var outs []txtar.File
	for _, name := range slices.Sorted(maps.Keys(r.after)) {
		in, isInput := r.inputs[name]
		if isInput && bytes.Equal(in, r.after[name]) {
			continue
		}
		if !isInput && !hasSection(ar, "out/"+name) {
			// A file the run creates must be expected by an out/ section.
			t.Errorf("the run left a file that is not an input: %s", name)
			continue
		}
		outs = append(outs, txtar.File{Name: "out/" + name, Data: r.after[name]})
	}
	for name := range r.inputs {
		if _, ok := r.after[name]; !ok {
			t.Errorf("the run removed input %s", name)
		}
	}
	got := map[string]string{
		"stdout": r.stdout,
		"stderr": r.stderr,
		"exit":   strconv.Itoa(r.exit) + "\n",
	}
	for _, f := range outs {
		got[f.Name] = string(f.Data)
	}
	for name, text := range got {
		if text != "" && !strings.HasSuffix(text, "\n") {
			// txtar implies a final newline: the golden could not hold it.
			t.Errorf("%s does not end with a newline; a golden archive cannot record that", name)
		}
	}

	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if !expectedSection(f.Name) {
				files = append(files, f)
			}
		}
		files = append(files,
			txtar.File{Name: "stdout", Data: []byte(r.stdout)},
			txtar.File{Name: "stderr", Data: []byte(r.stderr)},
			txtar.File{Name: "exit", Data: []byte(got["exit"])})
		files = append(files, outs...)
		ar.Files = files
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}

	want := map[string]string{}
	for _, f := range ar.Files {
		if expectedSection(f.Name) {
			want[f.Name] = string(f.Data)
		}
	}
	for _, name := range []string{"stdout", "stderr", "exit"} {
		if _, ok := want[name]; !ok {
			t.Errorf("the archive has no %s section (run with -update)", name)
		}
	}
	names := append(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))...)
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		g, gok := got[name]
		w, wok := want[name]
		switch {
		case !wok && strings.HasPrefix(name, "out/"):
			t.Errorf("the run changed %s, but the archive expects it untouched; got:\n%s", strings.TrimPrefix(name, "out/"), g)
		case !gok && strings.HasPrefix(name, "out/"):
			t.Errorf("the run left %s untouched, want:\n%s", strings.TrimPrefix(name, "out/"), w)
		case g != w:
			t.Errorf("%s differs (run with -update to accept):\n%s", name, lineDiff(w, g))
		}
	}
}

func hasSection(ar *txtar.Archive, name string) bool {
	return slices.ContainsFunc(ar.Files, func(f txtar.File) bool { return f.Name == name })
}

// lineDiff shows want and got line by line around the first difference;
// enough to see what changed without a diff library.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	from := max(0, i-2)
	fmt.Fprintf(&b, "first difference at line %d\n", i+1)
	for j := from; j < i; j++ {
		fmt.Fprintf(&b, "  %s\n", w[j])
	}
	for j := i; j < min(len(w), i+6); j++ {
		fmt.Fprintf(&b, "- %s\n", w[j])
	}
	for j := i; j < min(len(g), i+6); j++ {
		fmt.Fprintf(&b, "+ %s\n", g[j])
	}
	return b.String()
}

func parseArchive(t *testing.T, file string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return ar
}
