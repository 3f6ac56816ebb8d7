package filewrite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxSize is the largest review or diff the project reads: from a path
// here, and as a message to the language server (transport.MaxMessageSize is
// this). It is eight times the largest review the benchmarks generate,
// with room for its escaping in a message. Reading stops past it, so a
// file that grows while it is read costs no more.
const MaxSize = 64 << 20

// Errors the reads wrap.
var (
	// ErrTooLarge: the file is over MaxSize.
	ErrTooLarge = fmt.Errorf("over the limit of %d bytes (%d MiB) on a review or a diff", MaxSize, MaxSize>>20)
	// ErrNotRegular: a FIFO, a device, a directory or a socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrOutside: the path leads out of the root it was named in.
	ErrOutside = errors.New("leads outside the root (through \"..\" or a symbolic link)")
)

// maxLinks bounds the symbolic links ReadIn follows for the last part of
// a path, as the system bounds them (os.Root follows 8 per lookup).
const maxLinks = 8

// ReadFile reads the review or diff at name: a regular file (a FIFO, a
// device, a directory is refused at once, without waiting for data), of
// at most MaxSize bytes.
func ReadFile(name string) ([]byte, error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadBounded(f, fi, name)
}

// Open opens the file at name for reading, as ReadFile reads it: a
// regular file, refused at once otherwise; the FileInfo is the
// descriptor's. It is for a path a person named (a command's argument),
// where there is no root to stay under; a file under a root is opened
// with OpenIn.
func Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFileIn is ReadFile for the file at rel, a path relative to root.
func ReadFileIn(root *os.Root, rel string) ([]byte, error) {
	dir, base, err := locate(root, rel)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", rel, err)
	}
	defer dir.Close()
	data, _, err := readRegular(dir, base, rel)
	return data, err
}

// OpenIn opens the file at rel, a path relative to root, for reading: a
// regular file (anything else is refused at once, without waiting for
// data), reached through links that stay inside root. What the file is,
// is asked of the descriptor opened (the FileInfo returned), never of the
// name again: this is the one way the project opens a file under a root.
func OpenIn(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	dir, base, err := locate(root, rel)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", rel, err)
	}
	defer dir.Close() // the file opened stays open
	return openRegular(dir, base, rel)
}

// openRegular opens base in dir when it is a regular file.
func openRegular(dir *os.Root, base, name string) (*os.File, fs.FileInfo, error) {
	// Without blocking: opening a FIFO for reading would wait for a
	// writer.
	f, err := dir.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", name, pathError(err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readRegular reads base in dir, a regular file of at most MaxSize bytes,
// and returns what its descriptor's stat said.
func readRegular(dir *os.Root, base, name string) ([]byte, fs.FileInfo, error) {
	f, fi, err := openRegular(dir, base, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := ReadBounded(f, fi, name)
	return data, fi, err
}

// ReadBounded reads f, opened by OpenIn, whose stat said fi, when it is
// at most MaxSize bytes (else the error wraps ErrTooLarge); name is for
// messages.
func ReadBounded(f *os.File, fi fs.FileInfo, name string) ([]byte, error) {
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("cannot read %s: %d bytes, %w; nothing read", name, fi.Size(), ErrTooLarge)
	}
	// Room for the size stat said and one byte more, to see a file that
	// grew past the limit meanwhile.
	buf := make([]byte, 0, fi.Size()+1)
	if _, err := io.Copy(bytesWriter{&buf}, io.LimitReader(f, MaxSize+1)); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	if len(buf) > MaxSize {
		return nil, fmt.Errorf("cannot read %s: it grew while it was read, %w; nothing read", name, ErrTooLarge)
	}
	return buf, nil
}

// bytesWriter appends to a slice (bytes.Buffer would double its room past
// the size the file said).
type bytesWriter struct{ b *[]byte }

func (w bytesWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// regular refuses what is not a regular file: reading a FIFO or a device
// may never end, and writing one through a rename would replace it with a
// regular file.
func regular(name string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	kind := "a special file"
	switch {
	case fi.IsDir():
		kind = "a directory"
	case fi.Mode()&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case fi.Mode()&fs.ModeDevice != 0:
		kind = "a device"
	case fi.Mode()&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s is %s, %w; only regular files are read or written", name, kind, ErrNotRegular)
}

// locate finds the directory, inside root, that holds the file at rel,
// and the file's name in it, following a symbolic link in the last part
// as long as it stays inside root (os.Root follows those in the
// directories). The file need not exist: whoever opens it says so.
func locate(root *os.Root, rel string) (*os.Root, string, error) {
	for hops := 0; ; hops++ {
		dirName, base := split(rel)
		if base == "" {
			return nil, "", errors.New("not a file name")
		}
		dir, err := root.OpenRoot(dirName)
		if err != nil {
			return nil, "", pathError(err)
		}
		fi, err := dir.Lstat(base)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return dir, base, nil
		}
		target, err := dir.Readlink(base)
		dir.Close()
		switch {
		case err != nil:
			return nil, "", unwrapPath(err)
		case hops == maxLinks:
			return nil, "", errors.New("too many levels of symbolic links")
		case filepath.IsAbs(target):
			// os.Root follows no absolute link; one into the root is
			// followed as the path it names there.
			r, err := filepath.Rel(root.Name(), target)
			if err != nil || !filepath.IsLocal(r) {
				return nil, "", fmt.Errorf("a symbolic link to %s: %w", target, ErrOutside)
			}
			rel = r
		default:
			rel = dirName + string(filepath.Separator) + target
		}
	}
}

// split cuts rel into its directory ("." for none) and its last part; the
// last part is "" when it names no file ("", "." or "..").
func split(rel string) (dir, base string) {
	rel = filepath.FromSlash(rel)
	dir, base = ".", rel
	if i := strings.LastIndexByte(rel, filepath.Separator); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
		if dir == "" {
			dir = string(filepath.Separator) // absolute: refused by the root
		}
	}
	if base == "." || base == ".." {
		base = ""
	}
	return dir, base
}

// pathError is the reason of an os error, worded as ErrOutside when
// os.Root refused a path that leads out of it.
func pathError(err error) error {
	err = unwrapPath(err)
	if err != nil && err.Error() == "path escapes from parent" {
		return ErrOutside
	}
	return err
}
