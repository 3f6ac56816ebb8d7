package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() && fi.Size() > exchange.MaxSource {
		return nil, fmt.Errorf("cannot read %s: %d bytes, more than the %d a review can have", name, fi.Size(), exchange.MaxSource)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	return data, nil
}

// unwrapPath drops the path os errors repeat, since messages name it first.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// writeAtomic replaces name with data through a temporary file in the same
// directory and a rename, so that a crash never leaves half a file. The
// file keeps its permissions. A symbolic link is written through: its
// target is replaced and the link stays a link.
func writeAtomic(name string, data []byte) error {
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	info, err := os.Stat(name)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	return nil
}

// displayName is how messages name an input.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
