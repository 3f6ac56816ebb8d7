package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// parseRewriteFlags reads the -w flag shared by fmt, fix and rebase.
func parseRewriteFlags(name string, args []string, stderr io.Writer) (*flag.FlagSet, bool, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result to the file instead of standard output")
	if err := fs.Parse(args); err != nil {
		return fs, false, false
	}
	return fs, *write, true
}

// inPlace reports whether a result goes back into the file: -w, and a
// file to write to (standard input has none: its result is printed).
func inPlace(name string, write bool) bool { return write && name != "-" }

// rewriter runs the commands that may write their result back into the
// file they read (-w). Every such write goes through filewrite, which
// refuses to replace a file that changed since it was read.
type rewriter struct {
	// beforeWrite, when set, runs between reading a file and writing it
	// back: tests change the file there, as an editor's save would.
	beforeWrite func(name string)
}

// input is a file read for a command that may write it back.
type input struct {
	src  []byte
	orig *filewrite.Original // nil unless the result is written back
}

// read reads name for a rewrite: through filewrite when the result goes
// back into the file, so that the write can tell whether it changed since.
func (rw rewriter) read(name string, write bool, stdin io.Reader) (input, error) {
	if !inPlace(name, write) {
		src, err := readInput(name, stdin)
		return input{src: src}, err
	}
	orig, err := filewrite.Read(name)
	if err != nil {
		return input{}, err
	}
	return input{src: orig.Data, orig: orig}, nil
}

// emit writes a result back into its file (-w) or to standard output.
// doing names what the command was doing, for the message that says the
// file changed meanwhile.
func (rw rewriter) emit(name string, in input, out []byte, doing string, stdout io.Writer) error {
	if in.orig == nil {
		_, err := stdout.Write(out)
		return err
	}
	if rw.beforeWrite != nil {
		rw.beforeWrite(name)
	}
	err := in.orig.Replace(out)
	if errors.Is(err, filewrite.ErrChanged) {
		return errChanged{fmt.Errorf("%s changed while it was being %s; nothing written — run again", name, doing)}
	}
	return err
}

// errChanged is a write refused because the file changed since it was
// read: a problem of the run (exit 1), not of input or output (exit 2).
type errChanged struct{ error }

// writeStatus is the exit status for a failed write.
func writeStatus(err error) int {
	var changed errChanged
	if errors.As(err, &changed) {
		return 1
	}
	return 2
}

// rewriteFiles runs the loop fmt and fix share: read each FILE, turn it
// into its new text, and print that or, with -w, write it back when it
// changed. transform reports its own problems through the error, which
// makes the exit status 1; I/O problems make it 2, and other files are
// still processed.
func (rw rewriter) rewriteFiles(cmd, doing string, args []string, stdin io.Reader, stdout, stderr io.Writer,
	transform func(name string, src []byte) (out []byte, changed bool, err error)) int {
	fs, write, ok := parseRewriteFlags(cmd, args, stderr)
	if !ok {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "lreview-lsp %s: name at least one FILE (or - for standard input)\n", cmd)
		return 2
	}
	status := 0
	for _, name := range fs.Args() {
		in, err := rw.read(name, write, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			status = 2
			continue
		}
		out, changed, err := transform(name, in.src)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp %s: %s: %v\n", cmd, displayName(name), err)
			status = max(status, 1)
			continue
		}
		if in.orig != nil && !changed {
			continue // leave the file, and its mtime, alone
		}
		if err := rw.emit(name, in, out, doing, stdout); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp %s: %v\n", cmd, err)
			status = max(status, writeStatus(err))
		}
	}
	return status
}

func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return rewriter{}.fmt(args, stdin, stdout, stderr)
}

func (rw rewriter) fmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return rw.rewriteFiles("fmt", "formatted", args, stdin, stdout, stderr, func(name string, src []byte) ([]byte, bool, error) {
		out, err := exchange.Format(exchange.Parse(src))
		if err != nil {
			return nil, false, err
		}
		warnUnknown(name, out, stderr)
		return out, !bytes.Equal(out, src), nil
	})
}

// warnUnknown says which unknown members the formatted text kept: the
// spec's formatting keeps them but warns, since leanreview's own rewrite
// drops them. Positions are in the formatted text, which is what -w wrote
// or standard output received.
func warnUnknown(name string, out []byte, stderr io.Writer) {
	doc := exchange.Parse(out)
	m := doc.Mapper()
	for _, d := range exchange.Check(doc).Diagnostics {
		if d.Code != exchange.CodeUnknownField {
			continue
		}
		line, col := m.LineCol(d.Range.Start)
		fmt.Fprintf(stderr, "%s:%d:%d: warning: kept %s [%s]\n", displayName(name), line, col, d.Message, d.Code)
	}
}
