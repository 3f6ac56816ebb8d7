//go:build darwin || ios || freebsd || netbsd

package worktree

import (
	"io/fs"
	"syscall"
)

// sysStamp is fi's device, inode and status-change time.
func sysStamp(fi fs.FileInfo) (dev, ino uint64, ctimeNs int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino), st.Ctimespec.Nano()
	}
	return 0, 0, 0
}
