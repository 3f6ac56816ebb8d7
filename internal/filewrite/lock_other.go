//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package filewrite

import (
	"fmt"
	"os"
)

// lockDir, where flock(2) is missing (Windows), takes no lock between
// processes: it only opens the directory, to sync it after the rename.
// The check before the rename still refuses a file changed earlier.
func lockDir(dir *os.Root, name string) (*os.File, error) {
	d, err := dir.Open(".")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: its directory: %w", name, unwrapPath(err))
	}
	return d, nil
}
