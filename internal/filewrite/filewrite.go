// Package filewrite is the one place lreview-lsp writes files: the review
// a command rewrites with -w, a source file a suggestion is applied to, a
// review an import or an agent creates.
//
// A review file is edited by two parties at once, a person in an editor
// and a program, so a write must never replace what the program did not
// read. Rewriting is therefore two steps: Read records what the file was,
// and Original.Replace writes only if the file is still exactly that,
// through a temporary file in the same directory and a rename, so that a
// crash never leaves half a file. The replacement keeps what the file was:
// its mode bits (setuid, setgid and sticky included), owner and group. What
// cannot be kept is refused rather than lost: a file with several hard
// links (a rename would split them, and writing in place is not atomic),
// anything that is not a regular file, a read-only file.
package filewrite

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrChanged is wrapped by Replace's error when the file is no longer what
// Read returned: another program wrote it in between.
var ErrChanged = errors.New("changed since it was read")

// Original is a file as Read found it, to be replaced later.
type Original struct {
	// Name is the name Read was given; messages use it.
	Name string
	// Data is the file's content when it was read.
	Data []byte

	path string // Name with symbolic links resolved: the file replaced
	stat fileStat

	// beforeReplace runs just before Replace checks the file again; tests
	// set it to change the file in between.
	beforeReplace func()
}

// fileStat is what identifies one version of a file besides its content.
type fileStat struct {
	dev, ino uint64
	size     int64
	mtimeNs  int64
	mode     fs.FileMode
	uid, gid uint32
	nlink    uint64
}

// Read reads the file name will be replaced through. Symbolic links are
// followed: the file they lead to is the one read and, later, replaced.
func Read(name string) (*Original, error) {
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	// Stat before opening: opening a FIFO for reading would wait for a writer.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	if err := regular(name, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if err := regular(name, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	return &Original{Name: name, Data: data, path: path, stat: statOf(fi)}, nil
}

// regular refuses what is not a regular file: writing a FIFO, a device or
// a directory through a rename would replace it with a regular file.
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
	return fmt.Errorf("%s is %s, not a regular file; only regular files are written", name, kind)
}

// Replace writes data in place of the file o was read from, atomically, if
// the file is still what was read; otherwise it writes nothing and its
// error wraps ErrChanged. The temporary file it writes through is removed
// whatever happens.
func (o *Original) Replace(data []byte) error {
	if err := o.writable(); err != nil {
		return err
	}
	tmp, err := createTemp(o.path, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, unwrapPath(err))
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := o.fill(tmp, data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	if o.beforeReplace != nil {
		o.beforeReplace()
	}
	// Checked as late as possible: after this, only the rename.
	if err := o.unchanged(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), o.path); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, unwrapPath(err))
	}
	syncDir(filepath.Dir(o.path))
	return nil
}

// writable refuses what the replacement could not keep as it was.
func (o *Original) writable() error {
	if o.stat.mode.Perm()&0o222 == 0 {
		return fmt.Errorf("cannot write %s: the file is read-only (mode %04o); nothing written", o.Name, uint32(o.stat.mode.Perm()))
	}
	// Opening for writing (without truncating) asks the system whether
	// this user may write the file itself, whatever the directory allows.
	f, err := os.OpenFile(o.path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w; nothing written", o.Name, unwrapPath(err))
	}
	f.Close()
	if o.stat.nlink > 1 {
		return fmt.Errorf("cannot write %s: it has %d hard links, and replacing it would leave the other names with the old content; nothing written (write a copy, or remove the other links)", o.Name, o.stat.nlink)
	}
	return nil
}

// fill writes data into tmp with the original's owner, group and mode, and
// flushes it to disk.
func (o *Original) fill(tmp *os.File, data []byte) error {
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	// Owner first: changing it clears the setuid and setgid bits.
	if err := tmp.Chown(int(o.stat.uid), int(o.stat.gid)); err != nil {
		if mine, err2 := os.Stat(tmp.Name()); err2 != nil || !sameOwner(statOf(mine), o.stat) {
			return fmt.Errorf("cannot write %s: its owner and group (%d:%d) cannot be kept: %w; nothing written", o.Name, o.stat.uid, o.stat.gid, unwrapPath(err))
		}
	}
	if err := tmp.Chmod(o.stat.mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	return nil
}

func sameOwner(a, b fileStat) bool { return a.uid == b.uid && a.gid == b.gid }

// unchanged reports whether the file is still the one read: the same inode,
// size, modification time and content. The content is compared in full:
// reading a review again costs little beside what produced the new text,
// and a size and a time can both be equal after a quick second save.
func (o *Original) unchanged() error {
	changed := fmt.Errorf("%s %w; nothing written — run again", o.Name, ErrChanged)
	fi, err := os.Stat(o.path)
	if err != nil {
		return changed
	}
	now := statOf(fi)
	if now.dev != o.stat.dev || now.ino != o.stat.ino || now.size != o.stat.size || now.mtimeNs != o.stat.mtimeNs {
		return changed
	}
	data, err := os.ReadFile(o.path)
	if err != nil || !bytes.Equal(data, o.Data) {
		return changed
	}
	return nil
}

// Create writes a new file name holding data, atomically, with the mode a
// new file gets (0666 less the umask). An existing file is never replaced:
// the error then wraps fs.ErrExist.
func Create(name string, data []byte) error {
	tmp, err := createTemp(name, 0o666)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	// A hard link, unlike a rename, fails when the name exists.
	if err := os.Link(tmp.Name(), name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cannot write %s: %w; nothing written", name, fs.ErrExist)
		}
		return fmt.Errorf("cannot write %s: %w", name, unwrapLink(err))
	}
	syncDir(filepath.Dir(name))
	return nil
}

// createTemp creates a hidden file beside path for its replacement. The
// mode is given to the system, which applies the umask.
func createTemp(path string, mode fs.FileMode) (*os.File, error) {
	var random [6]byte
	for range 100 {
		if _, err := rand.Read(random[:]); err != nil {
			return nil, err
		}
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+hex.EncodeToString(random[:])+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free temporary name beside %s", path)
}

// syncDir flushes a directory so that a rename in it survives a crash. A
// failure is not reported: the data is written, only its durability is
// less certain, and some file systems refuse to sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// unwrapPath drops the path an os error repeats, since messages name the
// file first.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func unwrapLink(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
