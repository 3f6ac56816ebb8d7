//go:build !(linux || android || darwin || ios || freebsd || netbsd)

package worktree

import "io/fs"

// sysStamp, where os.Stat reports no inode or status-change time
// (Windows): a file is known by its size and modification time only.
func sysStamp(fs.FileInfo) (dev, ino uint64, ctimeNs int64) { return 0, 0, 0 }
