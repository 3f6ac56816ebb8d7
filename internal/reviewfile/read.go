package reviewfile

import (
	"io/fs"
	"os"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// ReadIn reads the review file at rel, a path relative to root: a regular
// file (anything else is refused at once, the error wrapping
// filewrite.ErrNotRegular), reached through links that stay inside root,
// of at most filewrite.MaxSize bytes (else filewrite.ErrTooLarge). The
// identity is the opened descriptor's, never the name's again. When prev,
// an earlier read of the same file, is still Current for that identity,
// prev is returned and nothing is read.
func ReadIn(root *os.Root, rel string, prev *Version) (*Version, error) {
	f, fi, err := filewrite.OpenIn(root, rel)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, rel, prev)
}

// ReadFile reads the review file at name, a path a person named (a
// command's argument: there is no root to stay under), as ReadIn reads
// one under a root.
func ReadFile(name string) (*Version, error) {
	f, fi, err := filewrite.Open(name)
	if err != nil {
		return nil, err
	}
	return readOpened(f, fi, name, nil)
}

// readOpened reads f, opened as name, whose descriptor said fi, unless
// prev is still Current; it closes f.
func readOpened(f *os.File, fi fs.FileInfo, name string, prev *Version) (*Version, error) {
	defer f.Close()
	id := IDOf(fi)
	if prev != nil && prev.Current(id, nil) {
		return prev, nil
	}
	data, err := filewrite.ReadBounded(f, fi, name)
	if err != nil {
		return nil, err
	}
	return New(id, data), nil
}
