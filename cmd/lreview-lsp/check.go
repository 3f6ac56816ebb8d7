package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/lsp"
)

// fileReport is one element of `check --format json`.
type fileReport struct {
	File        string                `json:"file"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "lreview-lsp check: --format must be text or json, got %q\n", *format)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "lreview-lsp check: name at least one FILE (or - for standard input)")
		return 2
	}
	status := 0
	reports := []fileReport{}
	for _, name := range fs.Args() {
		src, err := readInput(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			status = 2
			continue
		}
		doc := exchange.Parse(src)
		rep := anchor.CheckDocument(doc, nil)
		if hasError(rep.Diagnostics) && status == 0 {
			status = 1
		}
		if *format == "json" {
			conv := lsp.Converter{M: doc.Mapper(), Enc: exchange.UTF16}
			reports = append(reports, fileReport{File: displayName(name), Diagnostics: conv.Diagnostics(fileURI(name), rep.Diagnostics)})
			continue
		}
		m := doc.Mapper()
		for _, d := range rep.Diagnostics {
			line, col := m.LineCol(d.Range.Start)
			fmt.Fprintf(stdout, "%s:%d:%d: %s: %s [%s]\n", displayName(name), line, col, d.Severity, d.Message, d.Code)
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(reports); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return 2
		}
	}
	return status
}

func hasError(ds []exchange.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == exchange.SeverityError {
			return true
		}
	}
	return false
}

// fileURI names a file in relatedInformation locations.
func fileURI(name string) protocol.DocumentURI {
	if name == "-" {
		return "untitled:stdin"
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	return protocol.DocumentURI(uri.File(abs))
}
