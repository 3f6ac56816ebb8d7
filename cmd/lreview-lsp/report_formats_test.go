package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// compileSchema compiles a JSON Schema stored in testdata/schemas.
func compileSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "schemas", file))
	if err != nil {
		t.Fatal(err)
	}
	return testschema.Compile(t, file, data)
}

// corpus writes every review the golden archives and examples hold into
// a directory and returns their paths: a run over all of them meets every
// diagnostic code the goldens exercise.
func corpus(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	archives, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".json") || expectedSection(f.Name) {
				continue
			}
			p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(a), ".txtar")+"-"+string(rune('a'+i))+".review.json")
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.review.json"))
	return append(paths, examples...)
}

// runCheckFormat runs `check --format F` over files and decodes its JSON.
func runCheckFormat(t *testing.T, format string, files []string) any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check", "--format", format}, files...), nil, &stdout, &stderr)
	if code == 2 {
		t.Fatalf("check --format %s: exit 2: %s", format, stderr.String())
	}
	var v any
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
		t.Fatalf("check --format %s printed invalid JSON: %v", format, err)
	}
	return v
}

// TestReportSARIFSchema validates the SARIF output against the OASIS
// SARIF 2.1.0 schema (with Errata 01) and against the rtm.5 schema that
// SchemaStore publishes, which editors' SARIF viewers load.
func TestReportSARIFSchema(t *testing.T) {
	files := corpus(t)
	log := runCheckFormat(t, "sarif", files)
	// A failed read is a notification of a failed invocation, and still valid.
	var stdout bytes.Buffer
	run([]string{"check", "--format", "sarif", files[0], filepath.Join(t.TempDir(), "missing.review.json")}, nil, &stdout, &bytes.Buffer{})
	var withFailure any
	if err := json.Unmarshal(stdout.Bytes(), &withFailure); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"sarif-schema-2.1.0.json", "sarif-2.1.0-rtm.5.json"} {
		t.Run(file, func(t *testing.T) {
			schema := compileSchema(t, file)
			if err := schema.Validate(log); err != nil {
				t.Fatalf("the SARIF output does not match %s: %#v", file, err)
			}
			if err := schema.Validate(withFailure); err != nil {
				t.Fatalf("the SARIF output with a failed read does not match %s: %#v", file, err)
			}
		})
	}
}

func TestReportRdjsonSchema(t *testing.T) {
	schema := compileSchema(t, "DiagnosticResult.jsonschema")
	if err := schema.Validate(runCheckFormat(t, "rdjson", corpus(t))); err != nil {
		t.Fatalf("the rdjson output does not match reviewdog's DiagnosticResult schema: %#v", err)
	}
	// The schema is permissive (every member optional); what reviewdog
	// needs is checked here: a code, a known severity, a range.
	var res rdResult
	data, _ := json.Marshal(runCheckFormat(t, "rdjson", corpus(t)))
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Code.Value == "" || !slices.Contains([]string{"ERROR", "WARNING", "INFO"}, d.Severity) || d.Location.Range.Start.Line < 1 || d.Location.Range.Start.Column < 1 {
			t.Errorf("got %+v, want a code, a severity of the format's enum and a 1-based start", d)
		}
	}
}

// TestReportRulesCoverCodes checks the SARIF rules table against the codes
// the checker reports over the golden corpus: each has a rule of its own
// (none added on the fly) and every rule is met at least once.
func TestReportRulesCoverCodes(t *testing.T) {
	var log sarifLog
	data, _ := json.Marshal(runCheckFormat(t, "sarif", corpus(t)))
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules := rules()
	if got, want := len(run.Tool.Driver.Rules), len(rules); got != want {
		t.Errorf("got %d rules, want the table's %d: a code has no entry in rules", got, want)
	}
	seen := map[string]bool{}
	for _, r := range run.Results {
		seen[r.RuleID] = true
		if r.RuleIndex >= len(rules) || rules[r.RuleIndex].Code != r.RuleID {
			t.Errorf("result %s has rule index %d, want the table's entry for it", r.RuleID, r.RuleIndex)
		}
	}
	for _, r := range rules {
		if !seen[r.Code] {
			t.Errorf("no golden input reports %s: the table lists a code the checker never reports", r.Code)
		}
	}
}

func TestGithubEscaping(t *testing.T) {
	tests := []struct {
		in, data, property string
	}{
		{"plain", "plain", "plain"},
		{"100% done", "100%25 done", "100%25 done"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"file:1,2", "file:1,2", "file%3A1%2C2"},
		{"%0A", "%250A", "%250A"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := githubData(tt.in); got != tt.data {
				t.Errorf("githubData(%q): got %q, want %q", tt.in, got, tt.data)
			}
			if got := githubProperty(tt.in); got != tt.property {
				t.Errorf("githubProperty(%q): got %q, want %q", tt.in, got, tt.property)
			}
		})
	}
}

// TestRdjsonSuggestionsApply applies the rdjson suggestions as reviewdog
// would (1-based line, 1-based byte column, exclusive end) and expects
// what `fix` writes.
func TestRdjsonSuggestionsApply(t *testing.T) {
	for _, archive := range []string{"fix-drift", "check-format-rdjson"} {
		t.Run(archive, func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join("testdata", archive+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			var src []byte
			for _, f := range ar.Files {
				if f.Name == "in.review.json" {
					src = f.Data
				}
			}
			file := filepath.Join(t.TempDir(), "in.review.json")
			if err := os.WriteFile(file, src, 0o644); err != nil {
				t.Fatal(err)
			}
			var res rdResult
			data, _ := json.Marshal(runCheckFormat(t, "rdjson", []string{file}))
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(src, []byte("\n"))
			offset := func(p rdPosition) int {
				n := 0
				for _, l := range lines[:p.Line-1] {
					n += len(l)
				}
				return n + p.Column - 1
			}
			type edit struct {
				start, end int
				text       string
			}
			var edits []edit
			for _, d := range res.Diagnostics {
				for _, s := range d.Suggestions {
					edits = append(edits, edit{offset(s.Range.Start), offset(s.Range.End), s.Text})
				}
			}
			if len(edits) == 0 {
				t.Fatal("no suggestions")
			}
			slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
			got := slices.Clone(src)
			for _, e := range edits {
				got = slices.Concat(got[:e.start], []byte(e.text), got[e.end:])
			}
			var want bytes.Buffer
			run([]string{"fix", file}, nil, &want, &bytes.Buffer{})
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("the suggestions applied give:\n%s\nwant what fix prints:\n%s", got, want.Bytes())
			}
		})
	}
}

// TestDiagnosticsMatchCodesTable checks what the checker reports over the
// golden corpus against features.Codes: a known code, not editor-only, a
// fix only where the table says one exists, a fix-all only where it says
// fixAll applies, and the table's severity (milder on comments marked
// orphaned or dismissed; stricter for a duplicate of the review's own
// leanreview_review, patch or comments).
func TestDiagnosticsMatchCodesTable(t *testing.T) {
	codes := map[string]exchange.CodeInfo{}
	for _, c := range features.Codes() {
		codes[c.Code] = c
	}
	for _, p := range corpus(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range anchor.CheckDocument(exchange.Parse(data), nil).Diagnostics {
				info, ok := codes[d.Code]
				if !ok || info.EditorOnly {
					t.Errorf("code %q: got %+v, want a code of features.Codes that check reports", d.Code, info)
					continue
				}
				if len(d.Fixes) > 0 && !info.Fix {
					t.Errorf("%s has a fix, but the table says none exists", d.Code)
				}
				for _, f := range d.Fixes {
					if f.Safe && !info.FixAll {
						t.Errorf("%s has a fix-all fix %q, but the table says fixAll never applies", d.Code, f.Title)
					}
				}
				milder := d.Code == exchange.CodeOrphanedAnchor || d.Code == exchange.CodeSnippetMismatch
				stricter := d.Code == exchange.CodeDuplicateMember
				if d.Severity != info.Severity && !(milder && d.Severity > info.Severity) && !(stricter && d.Severity < info.Severity) {
					t.Errorf("%s: got severity %s, want %s", d.Code, d.Severity, info.Severity)
				}
			}
		})
	}
}
