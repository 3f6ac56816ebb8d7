package main

import (
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
)

// readInput reads a review or a diff from a named file, or from standard
// input for "-": a regular file (a FIFO, a device or a directory is
// refused at once) of at most filewrite.MaxSize bytes, the language
// server's limit; standard input is read up to that limit too.
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name != "-" {
		return filewrite.ReadFile(name)
	}
	data, err := io.ReadAll(io.LimitReader(stdin, filewrite.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if len(data) > filewrite.MaxSize {
		return nil, fmt.Errorf("reading standard input: more than %d bytes, %w; nothing read", filewrite.MaxSize, filewrite.ErrTooLarge)
	}
	return data, nil
}

// reviewInput reads the review file name, or standard input for "-", as
// readInput reads it, as one version of the review (reviewfile).
func reviewInput(name string, stdin io.Reader) (*reviewfile.Version, error) {
	if name != "-" {
		return reviewfile.ReadFile(name)
	}
	data, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	return reviewfile.New(reviewfile.ID{}, data), nil
}

// displayName is how messages name an input.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
