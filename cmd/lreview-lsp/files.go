package main

import (
	"fmt"
	"io"
	"os"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// readInput reads a named file, or standard input for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	}
	if err := checkSize(name); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	return data, nil
}

// checkSize refuses a file larger than a review can be before reading it.
func checkSize(name string) error {
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() && fi.Size() > exchange.MaxSource {
		return fmt.Errorf("cannot read %s: %d bytes, more than the %d a review can have", name, fi.Size(), exchange.MaxSource)
	}
	return nil
}

// unwrapPath drops the path os errors repeat, since messages name it first.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// displayName is how messages name an input.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
