//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package filewrite

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockWait is the longest a writer waits for the writers' lock. Writers
// hold it for a check and a rename, milliseconds; one that holds it for
// seconds is stopped, and the caller is better told than hung.
const lockWait = 10 * time.Second

// lockDir takes the writers' lock on dir (see the package doc): an
// exclusive flock on a descriptor of the directory, released when the
// returned file is closed. It is tried without blocking, and again after
// pauses that grow to 20 ms, so that a writer can give up after lockWait.
func lockDir(dir *os.Root, name string) (*os.File, error) {
	d, err := dir.Open(".")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: its directory: %w", name, unwrapPath(err))
	}
	rc, err := d.SyscallConn()
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	}
	deadline := time.Now().Add(lockWait)
	for pause := 100 * time.Microsecond; ; pause = min(2*pause, 20*time.Millisecond) {
		var ferr error
		if err := rc.Control(func(fd uintptr) { ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB) }); err != nil {
			ferr = err
		}
		switch {
		case ferr == nil:
			return d, nil
		case !errors.Is(ferr, syscall.EWOULDBLOCK) && !errors.Is(ferr, syscall.EINTR):
			d.Close()
			return nil, fmt.Errorf("cannot write %s: cannot lock its directory: %w; nothing written", name, ferr)
		case time.Now().After(deadline):
			d.Close()
			return nil, fmt.Errorf("cannot write %s: another writer has held the lock on its directory for %v; nothing written — run again", name, lockWait)
		}
		time.Sleep(pause)
	}
}
