package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/lsp"
)

// formatNames are the values of `check --format`, in the order help
// lists them.
var formatNames = []string{"text", "json", "sarif", "rdjson", "github"}

// A formatter turns checked files into one output format. file runs on
// the check's workers, concurrently, while the document is at hand; add
// receives its results in the order of the arguments; failed hears of the
// files that could not be read (already reported on standard error);
// finish writes what a whole-document format gathered. A formatter whose
// add changes it gives file a pointer receiver: a value receiver would
// copy the formatter, reading what add writes at the same time.
type formatter interface {
	file(name string, src []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any
	add(w io.Writer, part any) error
	failed(w io.Writer, name string, err error) error
	finish(w io.Writer) error
}

func newFormatter(name string) formatter {
	switch name {
	case "text":
		return &textFormat{}
	case "json":
		return &jsonFormat{reports: []fileReport{}}
	case "sarif":
		return &sarifFormat{}
	case "rdjson":
		return &rdjsonFormat{}
	case "github":
		return &githubFormat{}
	}
	return nil
}

// textFormat prints `file:line:col: severity: message [code]`, with the
// 1-based byte column compilers use, one file at a time.
type textFormat struct{}

func (textFormat) file(name string, _ []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	var b bytes.Buffer
	for _, d := range ds {
		line, col := m.LineCol(d.Range.Start)
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", displayName(name), line, col, d.Severity, d.Message, d.Code)
	}
	return b.Bytes()
}

func (textFormat) add(w io.Writer, part any) error {
	_, err := w.Write(part.([]byte))
	return err
}

func (textFormat) failed(io.Writer, string, error) error { return nil }
func (textFormat) finish(io.Writer) error                { return nil }

// fileReport is one element of `check --format json`.
type fileReport struct {
	File        string                `json:"file"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// jsonFormat is an array of fileReport: LSP diagnostics with UTF-16
// columns and the fixes in data.fixes.
type jsonFormat struct{ reports []fileReport }

func (*jsonFormat) file(name string, _ []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	conv := lsp.Converter{M: m, Enc: exchange.UTF16}
	return fileReport{File: displayName(name), Diagnostics: conv.Diagnostics(fileURI(name), ds)}
}

func (f *jsonFormat) add(_ io.Writer, part any) error {
	f.reports = append(f.reports, part.(fileReport))
	return nil
}

func (*jsonFormat) failed(io.Writer, string, error) error { return nil }

func (f *jsonFormat) finish(w io.Writer) error { return writeJSON(w, f.reports) }

// writeJSON writes v indented, without HTML escaping (messages quote
// code, where `<` and `&` are common).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// githubFormat writes GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's files:
//
//	::warning file=F,line=L,col=C,endLine=L,endColumn=C,title=T::MESSAGE
//
// Columns are 1-based UTF-16 code units, as in the SARIF output (GitHub's
// pages count characters of JavaScript strings).
type githubFormat struct{}

func (githubFormat) file(name string, _ []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	var b bytes.Buffer
	file := githubProperty(reportPath(name))
	for _, d := range ds {
		start, end := m.Range(d.Range.Start, d.Range.End, exchange.UTF16)
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			githubLevel(d.Severity), file,
			start.Line+1, start.Character+1, end.Line+1, end.Character+1,
			githubProperty("lreview "+d.Code), githubData(d.Message))
	}
	return b.Bytes()
}

func (githubFormat) add(w io.Writer, part any) error {
	_, err := w.Write(part.([]byte))
	return err
}

// failed annotates the file that could not be read, so that the run's
// summary shows why it failed.
func (githubFormat) failed(w io.Writer, name string, err error) error {
	_, werr := fmt.Fprintf(w, "::error file=%s,title=%s::%s\n", githubProperty(reportPath(name)), githubProperty("lreview"), githubData(err.Error()))
	return werr
}
func (githubFormat) finish(io.Writer) error { return nil }

// githubLevel maps a severity to a workflow command; information and hints
// become notices, which do not fail a check.
func githubLevel(s exchange.Severity) string {
	switch s {
	case exchange.SeverityError:
		return "error"
	case exchange.SeverityWarning:
		return "warning"
	}
	return "notice"
}

// githubData escapes a workflow command's message: the runner decodes
// %25, %0D and %0A, and would otherwise end the command at a line break.
func githubData(s string) string { return githubDataEscaper.Replace(s) }

// githubProperty escapes a property value, where `:` and `,` also
// delimit.
func githubProperty(s string) string { return githubPropertyEscaper.Replace(s) }

// The escapers are built once: a Replacer is safe for the check's
// concurrent workers, and building one per annotation is wasted work.
var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// reportPath is how the CI formats name a file: slash-separated and
// cleaned ("./a/b" is "a/b"), relative when given relative, so that it
// matches the repository paths a pull request shows. Standard input is
// "stdin".
func reportPath(name string) string {
	if name == "-" {
		return "stdin"
	}
	return filepath.ToSlash(filepath.Clean(name))
}
