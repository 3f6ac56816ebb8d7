//go:build unix

package lsp

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processRunning reports whether process pid exists: signal 0 checks
// without sending (EPERM: it exists, another user's).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe reports whether this process's user owns the file fi is of.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
