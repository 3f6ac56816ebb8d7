package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// examplesDir holds the reviews shown to users (examples/README.md).
var examplesDir = filepath.Join("..", "..", "examples")

// exampleWant is what check must say about one example. The clean ones
// (exit 0) must have no error diagnostic; codes lists every diagnostic's
// code in output order, so that a new finding on an example is a
// deliberate change of this table.
var exampleWant = map[string]struct {
	exit      int
	codes     []string
	canonical bool // fmt leaves it byte for byte
}{
	// The spec's example: its hunk is truncated on purpose.
	"auth.review.json": {0, []string{"hunk-count-mismatch"}, false},
	// One comment drifted two lines up: the demo for fix.
	"go-http-handler.review.json": {0, []string{"snippet-mismatch"}, true},
	"python-rename.review.json":   {0, nil, true},
	// The single-string patch form fmt converts to an array.
	"typescript-string-patch.review.json": {0, []string{"patch-string-form"}, false},
	"unicode-escapes.review.json":         {0, nil, true},
}

func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no examples in %s", examplesDir)
	}
	return files
}

// checkJSON runs check --format json on src (as standard input) and
// returns the exit status and the diagnostics.
func checkJSON(t *testing.T, src []byte) (int, []jDiag) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run([]string{"check", "--format", "json", "-"}, bytes.NewReader(src), &stdout, &stderr)
	var files []jFile
	if err := json.Unmarshal(stdout.Bytes(), &files); err != nil || len(files) != 1 {
		t.Fatalf("check --format json: %v (exit %d)\nstdout:\n%s\nstderr:\n%s", err, status, stdout.String(), stderr.String())
	}
	return status, files[0].Diagnostics
}

func codesOf(ds []jDiag) []string {
	var codes []string
	for _, d := range ds {
		codes = append(codes, d.Code)
	}
	return codes
}

// TestExamples checks every example as a user would: `check FILE`.
func TestExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, file := range exampleFiles(t) {
		name := filepath.Base(file)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			want, ok := exampleWant[name]
			if !ok {
				t.Fatalf("%s is not in exampleWant: add a row saying what check must report", name)
			}
			status, stdout, stderr := runCLI("check", file)
			if status != want.exit {
				t.Errorf("check %s: exit %d, want %d\n%s%s", name, status, want.exit, stdout, stderr)
			}
			if stderr != "" {
				t.Errorf("check wrote on stderr:\n%s", stderr)
			}
			_, diags := checkJSON(t, readFile(t, file))
			if got := codesOf(diags); !slices.Equal(got, want.codes) {
				t.Errorf("codes = %q, want %q\n%s", got, want.codes, stdout)
			}
			if want.exit == 0 {
				for _, d := range diags {
					if d.Severity == sevError {
						t.Errorf("a clean example has an error: %s: %s", d.Code, d.Message)
					}
				}
			}
			_, out, _ := runCLI("fmt", file)
			if canonical := out == string(readFile(t, file)); canonical != want.canonical {
				t.Errorf("fmt leaves it unchanged: %v, want %v", canonical, want.canonical)
			}
		})
	}
	for name := range exampleWant {
		if !seen[name] {
			t.Errorf("exampleWant lists %s, which is not in %s", name, examplesDir)
		}
	}
}

// TestFixLoop is the generator's loop: an LLM writes a review, runs
// `fix`, and hands the result over. The result must need no further safe
// fix (fix is a fixed point: running it again changes nothing and reports
// nothing), must have no error the input did not have, and must keep
// every comment. It runs on every example and on every golden input that
// fix accepts.
func TestFixLoop(t *testing.T) {
	type input struct {
		name string
		src  []byte
	}
	var inputs []input
	for _, file := range exampleFiles(t) {
		inputs = append(inputs, input{"examples/" + filepath.Base(file), readFile(t, file)})
	}
	for _, in := range checkInputs(t) {
		inputs = append(inputs, input{"testdata/" + in.name, in.src})
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			var fixed, report, errb bytes.Buffer
			status := run([]string{"fix", "-"}, bytes.NewReader(in.src), &fixed, &report)
			if status > 1 || status == 1 && fixed.Len() == 0 {
				if strings.Contains(report.String(), "syntax error") {
					t.Skip("fix refuses documents with syntax errors")
				}
				t.Fatalf("fix: exit %d\n%s", status, report.String())
			}
			out := fixed.Bytes()

			// A fixed point: nothing left to fix. What fix left (a tie, a
			// state it must not change, an error it cannot fix) it says
			// again, and only that, with the same exit status.
			var again bytes.Buffer
			errb.Reset()
			first := status
			status = run([]string{"fix", "-"}, bytes.NewReader(out), &again, &errb)
			var declined, still []string
			for _, l := range strings.Split(strings.TrimSpace(report.String()), "\n") {
				if strings.Contains(l, ": left ") {
					declined = append(declined, l)
				}
			}
			for _, l := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
				if l != "" && !slices.Contains(declined, l) {
					still = append(still, l)
				}
			}
			if status != first || len(still) > 0 || !bytes.Equal(again.Bytes(), out) {
				t.Errorf("fix on fix's output: exit %d, still fixes:\n%s", status, strings.Join(still, "\n"))
			}
			_, after := checkJSON(t, out)
			for _, d := range after {
				for _, fx := range d.Data.fixesOrNil() {
					if fx.FixAll {
						t.Errorf("after fix, %s still offers a fixAll fix %q", d.Code, fx.Title)
					}
				}
			}

			// No new errors.
			_, before := checkJSON(t, in.src)
			errorsByCode := func(ds []jDiag) map[string]int {
				m := map[string]int{}
				for _, d := range ds {
					if d.Severity == sevError {
						m[d.Code]++
					}
				}
				return m
			}
			was, now := errorsByCode(before), errorsByCode(after)
			for code, n := range now {
				if n > was[code] {
					t.Errorf("fix added errors: %d %s before, %d after", was[code], code, n)
				}
			}

			// Every comment kept, in order, with its body.
			if got, want := commentKeys(t, out), commentKeys(t, in.src); !slices.Equal(got, want) {
				t.Errorf("comments after fix = %q, want %q", got, want)
			}
		})
	}
}

// commentKeys identifies the comments of a document by id and body, or
// returns nil when the document does not decode as a review.
func commentKeys(t *testing.T, src []byte) []string {
	t.Helper()
	var doc struct {
		Comments []map[string]any `json:"comments"`
	}
	if json.Unmarshal(src, &doc) != nil {
		return nil
	}
	var keys []string
	for _, c := range doc.Comments {
		keys = append(keys, fmt.Sprintf("%v|%v", c["id"], c["body"]))
	}
	return keys
}
