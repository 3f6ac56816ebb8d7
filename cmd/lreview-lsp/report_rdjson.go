package main

import (
	"io"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The objects of reviewdog's Diagnostic Format (rdjson: a DiagnosticResult
// as JSON; proto/rdf/reviewdog.proto in reviewdog's repository).
type (
	rdResult struct {
		Source      rdSource       `json:"source"`
		Diagnostics []rdDiagnostic `json:"diagnostics"`
	}
	rdSource struct {
		Name string `json:"name"`
		URL  string `json:"url,omitempty"`
	}
	rdDiagnostic struct {
		Message     string         `json:"message"`
		Location    rdLocation     `json:"location"`
		Severity    string         `json:"severity"`
		Code        rdCode         `json:"code"`
		Suggestions []rdSuggestion `json:"suggestions,omitempty"`
		// RelatedLocations is the format's related_locations (newer than
		// the published DiagnosticResult schema, which allows it as an
		// additional member): the patch lines an anchor lands on, the
		// candidates found, the first of two duplicate ids.
		RelatedLocations []rdRelated `json:"related_locations,omitempty"`
	}
	rdRelated struct {
		Message  string     `json:"message,omitempty"`
		Location rdLocation `json:"location"`
	}
	rdLocation struct {
		Path  string  `json:"path"`
		Range rdRange `json:"range"`
	}
	rdRange struct {
		Start rdPosition `json:"start"`
		End   rdPosition `json:"end"`
	}
	rdPosition struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	rdCode struct {
		Value string `json:"value"`
	}
	rdSuggestion struct {
		Range rdRange `json:"range"`
		Text  string  `json:"text"`
	}
)

// rdjsonFormat is one DiagnosticResult over all the files. Positions are
// 1-based lines and 1-based UTF-8 byte columns with an exclusive end, as
// the format defines them. The fix that needs no choice, when there is
// one, is the diagnostic's suggestion, which reviewdog posts as a
// suggested change.
type rdjsonFormat struct{ diagnostics []rdDiagnostic }

func (*rdjsonFormat) file(name string, src []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	path := reportPath(name)
	rng := func(start, end int) rdRange {
		sl, sc := m.LineCol(start)
		el, ec := m.LineCol(end)
		return rdRange{Start: rdPosition{Line: sl, Column: sc}, End: rdPosition{Line: el, Column: ec}}
	}
	out := make([]rdDiagnostic, 0, len(ds))
	for _, d := range ds {
		rd := rdDiagnostic{
			Message:  d.Message,
			Location: rdLocation{Path: path, Range: rng(d.Range.Start, d.Range.End)},
			Severity: rdSeverity(d.Severity),
			Code:     rdCode{Value: d.Code},
		}
		for _, rel := range d.Related {
			rd.RelatedLocations = append(rd.RelatedLocations, rdRelated{Message: rel.Message, Location: rdLocation{Path: path, Range: rng(rel.Range.Start, rel.Range.End)}})
		}
		for _, f := range d.Fixes {
			if !f.Safe || len(f.Edits) == 0 {
				continue
			}
			if start, end, text, ok := mergedEdit(src, f.Edits); ok {
				rd.Suggestions = []rdSuggestion{{Range: rng(start, end), Text: text}}
			}
			break
		}
		out = append(out, rd)
	}
	return out
}

func (f *rdjsonFormat) add(_ io.Writer, part any) error {
	f.diagnostics = append(f.diagnostics, part.([]rdDiagnostic)...)
	return nil
}

func (*rdjsonFormat) failed(io.Writer, string, error) error { return nil }

func (f *rdjsonFormat) finish(w io.Writer) error {
	ds := f.diagnostics
	if ds == nil {
		ds = []rdDiagnostic{}
	}
	return writeJSON(w, rdResult{Source: rdSource{Name: "lreview", URL: "https://github.com/leanreview/lreview-lsp"}, Diagnostics: ds})
}

// rdSeverity names the format's Severity enum; hints have no level of
// their own there and are INFO.
func rdSeverity(s exchange.Severity) string {
	switch s {
	case exchange.SeverityError:
		return "ERROR"
	case exchange.SeverityWarning:
		return "WARNING"
	}
	return "INFO"
}

// mergedEdit turns a fix's edits into one replacement of the span from the
// first edit's start to the last one's end. reviewdog posts a suggestion
// on GitHub as a comment on the suggestion's lines and takes every
// suggestion of a diagnostic to cover the same lines, so a fix that edits
// start_line and snippet on two lines must be one suggestion over both.
func mergedEdit(src []byte, edits []exchange.Edit) (start, end int, text string, ok bool) {
	start, end = edits[0].Start, edits[0].End
	for _, e := range edits[1:] {
		start, end = min(start, e.Start), max(end, e.End)
	}
	if start < 0 || end > len(src) {
		return 0, 0, "", false
	}
	shifted := make([]exchange.Edit, len(edits))
	for i, e := range edits {
		shifted[i] = exchange.Edit{Start: e.Start - start, End: e.End - start, NewText: e.NewText}
	}
	out, err := exchange.ApplyEdits(src[start:end], shifted)
	if err != nil {
		return 0, 0, "", false
	}
	return start, end, string(out), true
}
