package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"time"
)

// member is one file of an archive: its name inside the archive's folder,
// its content and whether it is a program.
type member struct {
	name string
	data []byte
	exec bool
}

// mode is the member's permission bits: the same on every machine, whatever
// the umask or the file system it was built on.
func (m member) mode() int64 {
	if m.exec {
		return 0o755
	}
	return 0o644
}

// writeTarGz writes a .tar.gz of members under the folder dir, in the
// order given. Nothing of the machine or the moment goes in: every file
// is dated mtime (the commit's time), owned by 0:0 with no user names,
// and gzip's header carries no name and no time.
func writeTarGz(path, dir string, members []member, mtime time.Time) error {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}); err != nil {
		return err
	}
	for _, m := range members {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: dir + "/" + m.name, Mode: m.mode(), Size: int64(len(m.data)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(m.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeZip writes a .zip of members under the folder dir, in the order
// given, every file dated mtime and with its mode, as writeTarGz.
func writeZip(path, dir string, members []member, mtime time.Time) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	dh := &zip.FileHeader{Name: dir + "/", Method: zip.Store, Modified: mtime}
	dh.SetMode(os.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dh); err != nil {
		return err
	}
	for _, m := range members {
		h := &zip.FileHeader{Name: dir + "/" + m.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(m.mode()))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, bytes.NewReader(m.data)); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
