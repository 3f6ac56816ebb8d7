// Package filewrite is the one place lreview-lsp writes files: the review
// a command rewrites with -w, a source file a suggestion is applied to, a
// review an import or an agent creates. It is also where a review or a
// diff is read from a path (ReadFile): regular files only, at most
// MaxSize bytes.
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
//
// # The writers' lock
//
// The check that the file is still what was read and the rename are one
// step for every writer of the project, whether goroutines of one process
// (the MCP server runs tool calls at once) or several processes (two
// `rebase -w`, an agent and a command): both happen under an exclusive
// flock(2) on the directory that holds the file, the directory the rename
// happens in. A writer that read the version another writer has just
// replaced finds the file changed once it holds the lock, and refuses; so
// a write that reports success is never overwritten by one that did not
// read it. The lock is taken on an open descriptor of the directory, not
// on a lock file: the kernel drops it when that descriptor is closed,
// which the writer does right after the rename and the system does when
// the process exits or is killed, so it can never be left stale, and it
// leaves nothing on disk. Separate descriptors exclude each other even in
// one process, so goroutines are serialized by the same lock. It is
// advisory: it orders the project's writers; an editor's save, which does
// not take it, is caught by the check as before. A writer waits for it at
// most lockWait, then refuses (another process holding it that long is
// stuck, and waiting longer would hang the caller).
//
// # Through an os.Root
//
// A replacement is made through one *os.Root of the directory that holds
// the file, opened once: the temporary file, the check and the rename all
// name the file relative to that descriptor, so a directory renamed or
// swapped for a symbolic link meanwhile cannot send the write elsewhere
// (and a file found elsewhere than it was read is not the same inode: the
// check refuses it). ReadIn and CreateIn take the root of a working tree
// or of an agent's files and a path inside it, and open that directory
// through the root: nothing outside the root is read or written, whatever
// links a path crosses or races swap in.
package filewrite

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
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

	// root and rel name the file: a path relative to root, or, when
	// root is nil, the path Read resolved.
	root *os.Root
	rel  string
	stat fileStat
	// info is what the descriptor read said; written, what the one the
	// last Replace wrote said.
	info, written fs.FileInfo

	// beforeReplace runs just before Replace takes the lock and checks
	// the file again; tests set it to change the file in between.
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
	return readAt(&Original{Name: name, rel: path})
}

// ReadIn is Read for the file at rel, a path relative to root (with "/"
// or the system's separator). Symbolic links are followed as long as they
// stay inside root; anything that leads outside it is refused.
func ReadIn(root *os.Root, rel string) (*Original, error) {
	return readAt(&Original{Name: rel, root: root, rel: rel})
}

// readAt fills o's Data and stat from its file.
func readAt(o *Original) (*Original, error) {
	dir, base, err := o.openDir()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", o.Name, err)
	}
	defer dir.Close()
	data, fi, err := readRegular(dir, base, o.Name)
	if err != nil {
		return nil, err
	}
	o.Data, o.stat, o.info = data, statOf(fi), fi
	return o, nil
}

// Info is what the descriptor of the file read said: the identity of the
// version Data is, never asked of the name again.
func (o *Original) Info() fs.FileInfo { return o.info }

// Written is what the file the last successful Replace wrote said, as it
// was written (the rename keeps its inode and modification time); nil
// before one.
func (o *Original) Written() fs.FileInfo { return o.written }

// openDir opens the directory that holds o's file, and returns it with
// the file's name in it.
func (o *Original) openDir() (*os.Root, string, error) {
	if o.root != nil {
		return locate(o.root, o.rel)
	}
	dir, err := os.OpenRoot(filepath.Dir(o.rel))
	if err != nil {
		return nil, "", unwrapPath(err)
	}
	return dir, filepath.Base(o.rel), nil
}

// Replace writes data in place of the file o was read from, atomically, if
// the file is still what was read; otherwise it writes nothing and its
// error wraps ErrChanged. The check and the rename happen under the
// writers' lock (see the package doc). The temporary file it writes
// through is removed whatever happens.
func (o *Original) Replace(data []byte) error {
	if err := o.guard(); err != nil {
		return fmt.Errorf("cannot write %w; nothing written", err)
	}
	dir, base, err := o.openDir()
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	defer dir.Close()
	if err := o.writable(dir, base); err != nil {
		return err
	}
	tmp, tmpName, err := createTemp(dir, base, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, unwrapPath(err))
	}
	defer dir.Remove(tmpName) // fails harmlessly once renamed
	if err := o.fill(tmp, data); err != nil {
		tmp.Close()
		return err
	}
	written, err := tmp.Stat()
	if err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, err)
	}
	if o.beforeReplace != nil {
		o.beforeReplace()
	}
	lock, err := lockDir(dir, o.Name)
	if err != nil {
		return err
	}
	defer lock.Close() // releases the lock
	if err := o.unchanged(dir, base); err != nil {
		return err
	}
	if err := dir.Rename(tmpName, base); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.Name, unwrapPath(err))
	}
	o.written = written
	// Flushes the directory so that the rename survives a crash. A
	// failure is not reported: the data is written, only its durability
	// is less certain, and some file systems refuse to sync a directory.
	lock.Sync()
	return nil
}

// guard refuses a write into machinery (guard.go): o's name as given,
// and where it leads.
func (o *Original) guard() error {
	if o.root != nil {
		return GuardIn(o.root, o.rel)
	}
	if err := Guard(o.Name); err != nil {
		return err
	}
	return Guard(o.rel) // Read resolved its links
}

// writable refuses what the replacement could not keep as it was.
func (o *Original) writable(dir *os.Root, base string) error {
	if o.stat.mode.Perm()&0o222 == 0 {
		return fmt.Errorf("cannot write %s: the file is read-only (mode %04o); nothing written", o.Name, uint32(o.stat.mode.Perm()))
	}
	// Opening for writing (without truncating) asks the system whether
	// this user may write the file itself, whatever the directory allows.
	f, err := dir.OpenFile(base, os.O_WRONLY|syscall.O_NONBLOCK, 0)
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
		if mine, err2 := tmp.Stat(); err2 != nil || !sameOwner(statOf(mine), o.stat) {
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

// unchanged reports whether the file is still the one read: its name in
// the directory is the same inode (not a link put in its place), with the
// same size, modification time and content. The content is compared in
// full: reading a review again costs little beside what produced the new
// text, and a size and a time can both be equal after a quick second save.
func (o *Original) unchanged(dir *os.Root, base string) error {
	changed := fmt.Errorf("%s %w; nothing written — run again", o.Name, ErrChanged)
	fi, err := dir.Lstat(base)
	if err != nil || !sameVersion(statOf(fi), o.stat) {
		return changed
	}
	data, fi, err := readRegular(dir, base, o.Name)
	if err != nil || !sameVersion(statOf(fi), o.stat) || !bytes.Equal(data, o.Data) {
		return changed
	}
	return nil
}

func sameVersion(a, b fileStat) bool {
	return a.dev == b.dev && a.ino == b.ino && a.size == b.size && a.mtimeNs == b.mtimeNs
}

// Create writes a new file name holding data, atomically, with the mode a
// new file gets (0666 less the umask). An existing file is never replaced:
// the error then wraps fs.ErrExist.
func Create(name string, data []byte) error {
	if err := Guard(name); err != nil {
		return fmt.Errorf("cannot write %w; nothing written", err)
	}
	if real, ok := resolved(name); ok {
		if err := Guard(real); err != nil {
			return fmt.Errorf("cannot write %s: it leads to %w; nothing written", name, err)
		}
	}
	dir, err := os.OpenRoot(filepath.Dir(name))
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	defer dir.Close()
	return createAt(dir, filepath.Base(name), name, data)
}

// CreateIn is Create for the file at rel, a path relative to root: its
// directory must be inside root, reached through links that stay inside.
func CreateIn(root *os.Root, rel string, data []byte) error {
	dirName, base := split(rel)
	if base == "" {
		return fmt.Errorf("cannot write %s: not a file name", rel)
	}
	if err := GuardIn(root, rel); err != nil {
		return fmt.Errorf("cannot write %w; nothing written", err)
	}
	dir, err := root.OpenRoot(dirName)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", rel, pathError(err))
	}
	defer dir.Close()
	return createAt(dir, base, rel, data)
}

// MkdirAllIn creates the directory dir, a path relative to root, and its
// missing parents, none of them leading out of root (ErrOutside).
func MkdirAllIn(root *os.Root, dir string) error {
	if err := GuardIn(root, dir); err != nil {
		return fmt.Errorf("cannot create the directory %w", err)
	}
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the directory %s: %w", filepath.ToSlash(dir), pathError(err))
	}
	return nil
}

func createAt(dir *os.Root, base, name string, data []byte) error {
	tmp, tmpName, err := createTemp(dir, base, 0o666)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, unwrapPath(err))
	}
	defer dir.Remove(tmpName)
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
	lock, err := lockDir(dir, name)
	if err != nil {
		return err
	}
	defer lock.Close()
	// A hard link, unlike a rename, fails when the name exists.
	if err := dir.Link(tmpName, base); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cannot write %s: %w; nothing written", name, fs.ErrExist)
		}
		return fmt.Errorf("cannot write %s: %w", name, unwrapLink(err))
	}
	lock.Sync()
	return nil
}

// createTemp creates a hidden file in dir beside base for its
// replacement, and returns it with its name in dir. The mode is given to
// the system, which applies the umask.
func createTemp(dir *os.Root, base string, mode fs.FileMode) (*os.File, string, error) {
	var random [6]byte
	for range 100 {
		if _, err := rand.Read(random[:]); err != nil {
			return nil, "", err
		}
		name := "." + base + "." + hex.EncodeToString(random[:]) + ".tmp"
		f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if !errors.Is(err, fs.ErrExist) {
			return f, name, err
		}
	}
	return nil, "", fmt.Errorf("no free temporary name beside %s", base)
}

// unwrapPath drops the path an os error repeats, since messages name the
// file first.
// unwrapPath is the reason inside err's path errors (os.Root's MkdirAll
// nests one in another).
func unwrapPath(err error) error {
	var pe *fs.PathError
	for errors.As(err, &pe) {
		err = pe.Err
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
