//go:build !unix

package reviewfile

import "io/fs"

// sysID: the system reports no device or inode through os.Stat; the
// size and the time identify a version, and the bytes when the caller
// holds them (Version.Current).
func sysID(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
