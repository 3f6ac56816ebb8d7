package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The shape of `check --format json`, decoded independently of the
// types that produce it, so that a change of shape fails here. Pointers
// tell a missing member from a zero one.
type (
	jPos struct {
		Line      *int `json:"line"`
		Character *int `json:"character"`
	}
	jRange struct {
		Start *jPos `json:"start"`
		End   *jPos `json:"end"`
	}
	jEdit struct {
		Range   *jRange `json:"range"`
		NewText *string `json:"newText"`
	}
	jFix struct {
		Title       string  `json:"title"`
		IsPreferred bool    `json:"isPreferred"`
		FixAll      bool    `json:"fixAll"`
		Edits       []jEdit `json:"edits"`
	}
	jData struct {
		Reason string `json:"reason"`
		Fixes  []jFix `json:"fixes"`
	}
	jRelated struct {
		Location struct {
			URI   string  `json:"uri"`
			Range *jRange `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	}
	jDiag struct {
		Range              *jRange    `json:"range"`
		Severity           int        `json:"severity"`
		Code               string     `json:"code"`
		Source             string     `json:"source"`
		Message            string     `json:"message"`
		RelatedInformation []jRelated `json:"relatedInformation"`
		Data               *jData     `json:"data"`
	}
	jFile struct {
		File        *string `json:"file"`
		Diagnostics []jDiag `json:"diagnostics"`
	}
)

// LSP severities.
const (
	sevError = 1
	sevWarn  = 2
	sevInfo  = 3
	sevHint  = 4
)

// codeSpec is diagnostics.md's table: the severities a code may have,
// whether it offers fixes, and whether a fix of it may be in the fixAll set.
var codeSpec = map[string]struct {
	severities []int
	fixes      bool
	fixAll     bool
}{
	"syntax":                  {[]int{sevError}, false, false},
	"version-missing":         {[]int{sevError}, false, false},
	"version-unknown":         {[]int{sevError}, false, false},
	"version-not-first":       {[]int{sevWarn}, true, false},
	"schema":                  {[]int{sevError}, false, false},
	"unknown-field":           {[]int{sevHint}, true, false},
	"html-escape":             {[]int{sevHint}, true, true},
	"patch-string-form":       {[]int{sevHint}, true, false},
	"patch-trailing-empty":    {[]int{sevWarn}, true, true},
	"patch-multiline-element": {[]int{sevWarn}, true, false},
	"patch-empty":             {[]int{sevWarn}, false, false},
	"patch-parse":             {[]int{sevError}, false, false},
	"hunk-count-mismatch":     {[]int{sevWarn}, true, true},
	"orphaned-anchor":         {[]int{sevError, sevInfo}, true, true},
	"snippet-mismatch":        {[]int{sevWarn, sevInfo}, true, true},
	"orphaned-resolves":       {[]int{sevInfo}, true, false},
	"stale-anchor":            {[]int{sevInfo}, true, false},
	"renamed-path":            {[]int{sevHint}, true, false},
	"header-path":             {[]int{sevHint}, true, true},
	"duplicate-member":        {[]int{sevWarn, sevError}, false, false},
	"lone-surrogate":          {[]int{sevWarn}, false, false},
	"id-missing":              {[]int{sevHint}, true, false},
	"id-duplicate":            {[]int{sevError}, true, false},
	// The contract axis (this project's): Approve and Reject are editing
	// actions, like "Comment on RIGHT 74", not fixes carried in data.
	"contract-breaking":       {[]int{sevError, sevWarn}, false, false},
	"contract-change":         {[]int{sevHint}, false, false},
	"contract-decision-stale": {[]int{sevWarn}, false, false},
	"contract-unavailable":    {[]int{sevWarn}, false, false},
	"verdict":                 {[]int{sevError, sevWarn, sevInfo}, false, false},
}

var orphanReasons = []string{"unknown-path", "line-not-in-image", "range-crosses-hunks", "inverted-range", "no-such-image"}

// jsonInput is one document the structural test checks.
type jsonInput struct {
	name string // archive and file, for messages
	src  []byte
	file string // the file name, or "-" for standard input
}

// checkInputs collects the documents of the golden archives that run
// check: each *.review.json input, and standard input for `check -`.
func checkInputs(t *testing.T) []jsonInput {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonInput
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		isCheck := false
		for _, f := range ar.Files {
			if f.Name == "args" {
				fields := strings.Fields(string(f.Data))
				isCheck = len(fields) > 0 && fields[0] == "check"
			}
		}
		if !isCheck {
			continue
		}
		base := filepath.Base(file)
		for _, f := range ar.Files {
			switch {
			case f.Name == "stdin":
				out = append(out, jsonInput{name: base + ":stdin", src: f.Data, file: "-"})
			case strings.HasSuffix(f.Name, ".review.json"):
				out = append(out, jsonInput{name: base + ":" + f.Name, src: f.Data, file: f.Name})
			}
		}
	}
	return out
}

// TestCheckJSONStructure runs `check --format json` on every document of
// the check goldens and holds each diagnostic to diagnostics.md: range,
// severity, code, source and message present; severity as the table says;
// related locations in the same file; data.reason for orphaned anchors;
// fixes with titles and edits that apply cleanly and make the diagnostic
// go away (or weaken it). It also compares the text format, line for
// line, and asserts that the goldens exercise every code and reason.
func TestCheckJSONStructure(t *testing.T) {
	seenCodes := map[string]bool{}
	seenReasons := map[string]bool{}
	for _, in := range checkInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			dir := t.TempDir()
			arg := in.file
			if arg != "-" {
				arg = filepath.Join(dir, in.file)
				writeFile(t, arg, in.src, 0o644)
			}
			var stdout, stderr bytes.Buffer
			status := run([]string{"check", "--format", "json", arg}, bytes.NewReader(in.src), &stdout, &stderr)
			if status != 0 && status != 1 {
				t.Fatalf("check --format json: exit %d, want 0 or 1; stderr:\n%s", status, stderr.String())
			}
			var files []jFile
			dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
			if err := dec.Decode(&files); err != nil {
				t.Fatalf("decoding the output: %v\n%s", err, stdout.String())
			}
			if len(files) != 1 {
				t.Fatalf("got %d file reports, want 1", len(files))
			}
			f := files[0]
			wantName, wantURI := displayName(arg), string(fileURI(arg))
			if f.File == nil || *f.File != wantName {
				t.Errorf("file = %v, want %q", f.File, wantName)
			}
			if f.Diagnostics == nil {
				t.Errorf("diagnostics is null, want an array (possibly empty)")
			}
			hasError := false
			for i, d := range f.Diagnostics {
				where := fmt.Sprintf("diagnostic %d (%s)", i, d.Code)
				checkDiagnostic(t, where, in.src, wantURI, d)
				seenCodes[d.Code] = true
				if d.Data != nil && d.Data.Reason != "" {
					seenReasons[d.Data.Reason] = true
				}
				hasError = hasError || d.Severity == sevError
				for j, fx := range d.Data.fixesOrNil() {
					checkFixApplies(t, fmt.Sprintf("%s fix %d %q", where, j, fx.Title), in.src, d, fx)
				}
			}
			if wantStatus := map[bool]int{false: 0, true: 1}[hasError]; status != wantStatus {
				t.Errorf("exit %d, want %d (error diagnostics: %v)", status, wantStatus, hasError)
			}
			compareTextFormat(t, in, arg, f.Diagnostics)
		})
	}
	t.Run("coverage", func(t *testing.T) {
		for _, code := range slices.Sorted(maps.Keys(codeSpec)) {
			if !seenCodes[code] {
				t.Errorf("no check golden produces code %s", code)
			}
		}
		for _, r := range orphanReasons {
			if !seenReasons[r] {
				t.Errorf("no check golden produces orphaned-anchor reason %s", r)
			}
		}
	})
}

func (d *jData) fixesOrNil() []jFix {
	if d == nil {
		return nil
	}
	return d.Fixes
}

// checkDiagnostic holds one diagnostic to the spec.
func checkDiagnostic(t *testing.T, where string, src []byte, uri string, d jDiag) {
	t.Helper()
	spec, known := codeSpec[d.Code]
	if !known {
		t.Errorf("%s: unknown code %q", where, d.Code)
	}
	if d.Source != "lreview" {
		t.Errorf("%s: source = %q, want lreview", where, d.Source)
	}
	if strings.TrimSpace(d.Message) == "" || strings.Contains(d.Message, "\n") {
		t.Errorf("%s: message = %q, want one non-empty line", where, d.Message)
	}
	if known && !slices.Contains(spec.severities, d.Severity) {
		t.Errorf("%s: severity = %d, want one of %v", where, d.Severity, spec.severities)
	}
	// An empty document has no character to cover; any other
	// diagnostic covers at least one.
	start, end, err := spanOf(src, d.Range)
	if err != nil {
		t.Errorf("%s: range: %v", where, err)
	} else if start >= end && len(bytes.TrimSpace(src)) > 0 {
		t.Errorf("%s: range is empty at offset %d; a diagnostic covers at least one character", where, start)
	}
	for k, r := range d.RelatedInformation {
		if r.Location.URI != uri {
			t.Errorf("%s: related %d: uri = %q, want %q", where, k, r.Location.URI, uri)
		}
		if _, _, err := spanOf(src, r.Location.Range); err != nil {
			t.Errorf("%s: related %d: range: %v", where, k, err)
		}
		if r.Message == "" {
			t.Errorf("%s: related %d has no message", where, k)
		}
	}
	if d.Code == "id-duplicate" && len(d.RelatedInformation) == 0 {
		t.Errorf("%s: no related information pointing at the first use", where)
	}
	reason := ""
	if d.Data != nil {
		reason = d.Data.Reason
	}
	switch {
	case d.Code == "orphaned-anchor" && !slices.Contains(orphanReasons, reason):
		t.Errorf("%s: data.reason = %q, want one of %v", where, reason, orphanReasons)
	case d.Code != "orphaned-anchor" && reason != "":
		t.Errorf("%s: data.reason = %q on a code that has none", where, reason)
	}
	fixes := d.Data.fixesOrNil()
	if known && spec.fixes != (len(fixes) > 0) {
		t.Errorf("%s: %d fixes, but diagnostics.md says fixes offered: %v", where, len(fixes), spec.fixes)
	}
	preferred := 0
	for j, fx := range fixes {
		if fx.Title == "" {
			t.Errorf("%s: fix %d has no title", where, j)
		}
		if len(fx.Edits) == 0 {
			t.Errorf("%s: fix %d %q has no edits", where, j, fx.Title)
		}
		for k, e := range fx.Edits {
			if e.Range == nil || e.NewText == nil {
				t.Errorf("%s: fix %d edit %d lacks range or newText", where, j, k)
			}
		}
		if fx.FixAll && known && !spec.fixAll {
			t.Errorf("%s: fix %q is in the fixAll set, which diagnostics.md does not allow for %s", where, fx.Title, d.Code)
		}
		if fx.IsPreferred {
			preferred++
		}
	}
	if preferred > 1 {
		t.Errorf("%s: %d preferred fixes, want at most one", where, preferred)
	}
}

// checkFixApplies applies one fix's edits and checks the result: still
// valid JSON, and the diagnostic's code weighs less than before (gone, or
// weakened, as marking an anchor orphaned turns an error into information).
func checkFixApplies(t *testing.T, where string, src []byte, d jDiag, fx jFix) {
	t.Helper()
	var edits []exchange.Edit
	for _, e := range fx.Edits {
		if e.Range == nil || e.NewText == nil {
			return // reported by checkDiagnostic
		}
		start, end, err := spanOf(src, e.Range)
		if err != nil {
			t.Errorf("%s: edit range: %v", where, err)
			return
		}
		edits = append(edits, exchange.Edit{Start: start, End: end, NewText: *e.NewText})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	for i := 1; i < len(edits); i++ {
		if edits[i].Start < edits[i-1].End {
			t.Errorf("%s: edits overlap: [%d,%d) and [%d,%d)", where, edits[i-1].Start, edits[i-1].End, edits[i].Start, edits[i].End)
			return
		}
	}
	out := applyEdits(src, edits)
	doc := exchange.Parse(out)
	if len(doc.Syntax) > 0 {
		t.Errorf("%s: the fixed document has a syntax error: %s\n%s", where, doc.Syntax[0].Msg, out)
		return
	}
	before, after := codeWeight(t, src, d.Code), codeWeight(t, out, d.Code)
	if after >= before {
		t.Errorf("%s: the fix leaves %s as heavy as before (weight %d → %d)", where, d.Code, before, after)
	}
}

// codeWeight sums the severities of a code's diagnostics in src, an error
// weighing most.
func codeWeight(t *testing.T, src []byte, code string) int {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run([]string{"check", "--format", "json", "-"}, bytes.NewReader(src), &stdout, &stderr)
	var files []jFile
	if err := json.Unmarshal(stdout.Bytes(), &files); err != nil || len(files) != 1 {
		t.Fatalf("re-checking: %v\n%s", err, stdout.String())
	}
	w := 0
	for _, d := range files[0].Diagnostics {
		if d.Code == code {
			w += 5 - d.Severity
		}
	}
	return w
}

func applyEdits(src []byte, sorted []exchange.Edit) []byte {
	var b bytes.Buffer
	last := 0
	for _, e := range sorted {
		b.Write(src[last:e.Start])
		b.WriteString(e.NewText)
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes()
}

// spanOf converts a protocol range (UTF-16 columns) to byte offsets,
// independently of the project's Mapper.
func spanOf(src []byte, r *jRange) (int, int, error) {
	if r == nil || r.Start == nil || r.End == nil {
		return 0, 0, fmt.Errorf("missing range, start or end")
	}
	start, err := offsetOf(src, r.Start)
	if err != nil {
		return 0, 0, err
	}
	end, err := offsetOf(src, r.End)
	if err != nil {
		return 0, 0, err
	}
	if end < start {
		return 0, 0, fmt.Errorf("end %d before start %d", end, start)
	}
	return start, end, nil
}

func offsetOf(src []byte, p *jPos) (int, error) {
	if p.Line == nil || p.Character == nil {
		return 0, fmt.Errorf("position lacks line or character")
	}
	line, char := *p.Line, *p.Character
	off := 0
	for l := 0; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the end (%d lines)", line, l+1)
		}
		off += i + 1
	}
	text := src[off:]
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	units := 0
	for i := 0; ; {
		if units == char {
			return off + i, nil
		}
		if i >= len(text) || units > char {
			return 0, fmt.Errorf("character %d is not a character boundary of line %d (%d UTF-16 units)", char, line, units)
		}
		r, size := utf8.DecodeRune(text[i:])
		units += len(utf16.Encode([]rune{r}))
		i += size
	}
}

var textLine = regexp.MustCompile(`^(.*):(\d+):(\d+): (error|warning|info|hint): (.*) \[([a-z-]+)\]$`)

// compareTextFormat checks that the text format reports the same
// diagnostics as the json one, at the same places (text columns are
// 1-based bytes, json's 0-based UTF-16 units).
func compareTextFormat(t *testing.T, in jsonInput, arg string, diags []jDiag) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run([]string{"check", arg}, bytes.NewReader(in.src), &stdout, &stderr)
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if stdout.Len() == 0 {
		lines = nil
	}
	if len(lines) != len(diags) {
		t.Errorf("text format: %d lines, json: %d diagnostics\n%s", len(lines), len(diags), stdout.String())
		return
	}
	sevName := map[int]string{sevError: "error", sevWarn: "warning", sevInfo: "info", sevHint: "hint"}
	for i, l := range lines {
		m := textLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("text line %q does not read file:line:col: severity: message [code]", l)
			continue
		}
		d := diags[i]
		start, _, err := spanOf(in.src, d.Range)
		if err != nil {
			continue // reported elsewhere
		}
		lineStart := bytes.LastIndexByte(in.src[:start], '\n') + 1
		want := []string{displayName(arg), strconv.Itoa(*d.Range.Start.Line + 1), strconv.Itoa(start - lineStart + 1), sevName[d.Severity], d.Message, d.Code}
		if !slices.Equal(m[1:], want) {
			t.Errorf("text line %d = %q, want the json diagnostic %q", i, m[1:], want)
		}
	}
}
