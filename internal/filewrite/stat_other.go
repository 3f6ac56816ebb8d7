//go:build !unix

package filewrite

import "io/fs"

// statOf, where the system has no inode, owner or link count to report
// through os.Stat (Windows): a file is known by its size, time, mode and,
// in unchanged, its content.
func statOf(fi fs.FileInfo) fileStat {
	return fileStat{size: fi.Size(), mtimeNs: fi.ModTime().UnixNano(), mode: fi.Mode()}
}
