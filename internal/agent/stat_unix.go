//go:build unix

package agent

import (
	"io/fs"
	"syscall"
)

// sysID is the file's device and inode.
func sysID(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
