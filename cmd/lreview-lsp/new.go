package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// runNew writes a new review around a diff to standard output.
func runNew(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	title := fs.String("title", "", "the review's title")
	summary := fs.String("summary", "", "the review's summary")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	name := "-"
	switch fs.NArg() {
	case 0:
	case 1:
		name = fs.Arg(0)
	default:
		fmt.Fprintln(stderr, "lreview-lsp new: usage: lreview-lsp new [--title T] [--summary S] [DIFF|-]")
		return 2
	}
	diff, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	out, err := anchor.NewReview(diff, *title, *summary)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp new: %s: %v\n", displayName(name), err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	return 0
}
