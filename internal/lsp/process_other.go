//go:build !unix

package lsp

import (
	"io/fs"
	"os"
)

// processRunning reports whether process pid exists (on Windows, finding
// it opens it, which fails once it has exited).
func processRunning(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// ownedByMe: the temporary directory is the user's own on Windows.
func ownedByMe(fs.FileInfo) bool { return true }
