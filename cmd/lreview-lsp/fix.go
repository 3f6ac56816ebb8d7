package main

import (
	"bytes"
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
// when the fixed document still has an error.
func (rw rewriter) fix(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	errorsLeft := false
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
		errorsLeft = errorsLeft || reportErrorsLeft(name, fixed, stderr)
		return fixed.Src, changed, nil
	})
	if errorsLeft {
		return max(status, 1)
	}
	return status
}

// reportErrorsLeft prints, as check does, the errors of the fixed document
// that no "left" line told about (a schema error, a duplicate id), and
// reports whether it has any error.
func reportErrorsLeft(name string, fixed *anchor.Fixed, stderr io.Writer) bool {
	told := map[int]bool{}
	for _, a := range fixed.Applied {
		if a.Declined {
			told[a.Offset] = true
		}
	}
	m := fixed.Report.Doc.Mapper()
	for _, d := range fixed.Report.Diagnostics {
		if d.Severity != exchange.SeverityError || told[d.Range.Start] {
			continue
		}
		line, col := m.LineCol(d.Range.Start)
		fmt.Fprintf(stderr, "%s:%d:%d: left error: %s [%s]\n", displayName(name), line, col, d.Message, d.Code)
	}
	return fixed.Errors() > 0
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
	if len(doc.Syntax) > 0 {
		line, col := doc.Mapper().LineCol(doc.Syntax[0].Start)
		fmt.Fprintf(stderr, "lreview-lsp rebase: %s: not rebasing a document with syntax errors (first at %d:%d: %s)\n", displayName(name), line, col, doc.Syntax[0].Msg)
		return 1
	}
	if diffData, err = anchor.PlainDiff(diffData); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp rebase: %s: %v\n", diffName, err)
		return 1
	}
	edits, moves, err := anchor.Rebase(doc, anchor.SplitDiffFile(diffData))
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp rebase: %s: %v\n", displayName(name), err)
		return 1
	}
	out, err := exchange.ApplyEdits(src, edits)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp rebase: %s: %v\n", displayName(name), err)
		return 1
	}
	m := doc.Mapper()
	for _, mv := range moves {
		// A dismissed comment that no longer anchors keeps its state and
		// numbers, so nothing changes in the file; it is still news.
		if mv.Unchanged && !mv.Orphaned {
			continue
		}
		line, _ := m.LineCol(mv.Comment.Node.Start)
		id := mv.Comment.ID
		if id == "" {
			id = fmt.Sprintf("comment #%d", mv.Comment.Index+1)
		}
		if mv.Orphaned {
			what := "marked " + id + " orphaned"
			if mv.State != exchange.StateOrphaned {
				what = id + " no longer anchors" // dismissed: the verdict stays
			}
			fmt.Fprintf(stderr, "%s:%d: %s: %s\n", displayName(name), line, what, mv.Why)
			continue
		}
		fmt.Fprintf(stderr, "%s:%d: moved %s from %s %d to %s %d (%s)\n", displayName(name), line, id, mv.FromSide, mv.FromStart, mv.ToSide, mv.ToStart, mv.Why)
	}
	if in.orig != nil && bytes.Equal(out, src) {
		return 0 // nothing moved and the patch is the same: leave the file alone
	}
	if err := rw.emit(name, in, out, "rebased", stdout); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp rebase: %v\n", err)
		return writeStatus(err)
	}
	return 0
}
