//go:build unix

package filewrite

import (
	"io/fs"
	"syscall"
)

func statOf(fi fs.FileInfo) fileStat {
	s := fileStat{size: fi.Size(), mtimeNs: fi.ModTime().UnixNano(), mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(st.Dev), uint64(st.Ino)
		s.uid, s.gid = st.Uid, st.Gid
		s.nlink = uint64(st.Nlink)
	}
	return s
}
