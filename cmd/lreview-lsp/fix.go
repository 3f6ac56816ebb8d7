package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func runFix(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return rewriter{}.fix(args, stdin, stdout, stderr)
}

// fix applies the fixes that need no choice, reports each on standard
// error, then one line per comment it left and why; like check, it exits 1
// when the fixed document still has an error, the contract axis's
// included (a Block verdict, an undecided breaking change), its working
// tree found as check finds it by default.
func (rw rewriter) fix(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	errorsLeft := false
	axis := &contractAxis{}
	status := rw.rewriteFiles("fix", "fixed", args, stdin, stdout, stderr, func(name string, src []byte) ([]byte, bool, error) {
		fixed, err := anchor.FixDocument(src)
		if err != nil {
			return nil, false, err
		}
		changed := false
		for _, a := range fixed.Applied {
			changed = changed || !a.Declined
			fmt.Fprintf(stderr, "%s:%d: %s\n", displayName(name), a.Line, a.Done)
		}
		errorsLeft = reportErrorsLeft(name, fixed, axis.diagnostics(name, fixed.Analysis), stderr) || errorsLeft
		return fixed.Src, changed, nil
	})
	if errorsLeft {
		return max(status, 1)
	}
	return status
}

// reportErrorsLeft prints, as check does, the errors ds of the fixed
// document (its analysis's and the contract axis's) that no "left" line
// told about (a schema error, a duplicate id, a Block verdict), and
// reports whether it has any error.
func reportErrorsLeft(name string, fixed *anchor.Fixed, ds []exchange.Diagnostic, stderr io.Writer) bool {
	told := map[int]bool{}
	for _, a := range fixed.Applied {
		if a.Declined {
			told[a.Offset] = true
		}
	}
	m := fixed.Analysis.Doc.Mapper()
	for _, d := range ds {
		if d.Severity != exchange.SeverityError || told[d.Range.Start] {
			continue
		}
		line, col := m.LineCol(d.Range.Start)
		fmt.Fprintf(stderr, "%s:%d:%d: left error: %s [%s]\n", displayName(name), line, col, d.Message, d.Code)
	}
	return fixed.Errors() > 0 || hasError(ds)
}

func runRebase(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return rewriter{}.rebase(args, stdin, stdout, stderr)
}

func (rw rewriter) rebase(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, write, ok := parseRewriteFlags("rebase", args, stderr)
	if !ok {
		return 2
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "lreview-lsp rebase: usage: lreview-lsp rebase [-w] FILE NEW.diff")
		return 2
	}
	name, diffName := fs.Arg(0), fs.Arg(1)
	in, err := rw.read(name, write, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	src := in.src
	diffData, err := readInput(diffName, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	doc := exchange.Parse(src)
	rb, err := anchor.RebaseDocument(doc, diffData)
	if err != nil {
		at := name
		if de := (*anchor.DiffError)(nil); errors.As(err, &de) {
			at = diffName
		}
		fmt.Fprintf(stderr, "lreview-lsp rebase: %s: %v\n", displayName(at), err)
		return 1
	}
	m := doc.Mapper()
	for _, mv := range rb.Moves {
		line, _ := m.LineCol(mv.Comment.Node.Start)
		fmt.Fprintf(stderr, "%s:%d: %s\n", displayName(name), line, mv.Done())
	}
	out := rb.Src
	if in.orig != nil && bytes.Equal(out, src) {
		return 0 // nothing moved and the patch is the same: leave the file alone
	}
	if err := rw.emit(name, in, out, "rebased", stdout); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp rebase: %v\n", err)
		return writeStatus(err)
	}
	return 0
}
