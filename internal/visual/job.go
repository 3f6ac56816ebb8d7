package visual

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Job is one rendering of a review's use cases: the working tree (the
// head side), how the patch's files are put back to make the base side,
// the Widgetbook app and the Dart files its use cases are read from on
// each side, and Key, a sum of all of it, by which renders are kept.
type Job struct {
	Tree       *worktree.Tree
	Flutter    string // the flutter command
	App        string // the Widgetbook app's directory in the tree, "." at its root
	Package    string // the app's package name, "" when its pubspec names none
	Files      []string
	Components []string
	Patch      []PatchFile
	Key        string
}

// PatchFile is one file of the patch as the base side needs it: the head
// side's path New ("" when the patch deletes it), the base side's Old
// ("" when the patch adds it) and the blob of its old content (read from
// the repository with git cat-file); Rename: a rename without a change
// of content (no blob named), put back by moving the file.
type PatchFile struct {
	Old, New, OldBlob string
	Rename            bool
}

// newJob is the job of rendering the use cases in files of the app in
// t. Each file of the patch must say how to rebuild its old side: an
// index line with its blob ids (git diff's), or a pure rename.
func newJob(an *anchor.Analysis, t *worktree.Tree, w walked, app, pkg, flutter string, files, components []string) (*Job, error) {
	blobs := branch.Files(&an.Doc.Review.Patch, an.Index)
	byName := map[[2]string]branch.File{}
	for _, f := range blobs {
		byName[[2]string{f.Old, f.New}] = f
	}
	job := &Job{Tree: t, Flutter: flutter, App: app, Package: pkg, Components: components}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %q\n", flutter, app, pkg, components)
	h.Write(w.stat[:])
	for _, fd := range an.Index.Files {
		f, ok := byName[[2]string{fd.OldName, fd.NewName}]
		switch {
		case ok:
			job.Patch = append(job.Patch, PatchFile{Old: f.Old, New: f.New, OldBlob: f.OldBlob})
		case fd.OldName != "" && fd.NewName != "" && fd.OldName != fd.NewName && len(fd.Hunks) == 0:
			job.Patch = append(job.Patch, PatchFile{Old: fd.OldName, New: fd.NewName, Rename: true})
		case len(fd.Hunks) == 0 && fd.OldName == fd.NewName:
			// a change of mode only: both sides' contents are the same
		default:
			name := fd.NewName
			if name == "" {
				name = fd.OldName
			}
			return nil, fmt.Errorf("the patch's %s has no index line (git diff's blob ids): its old side cannot be rebuilt to render the base; make the review from `git diff`", name)
		}
	}
	fmt.Fprintf(h, "%+v\n", job.Patch)
	for i := range an.Doc.Review.Patch.LineCount() {
		io.WriteString(h, an.Doc.Review.Patch.LineText(i))
		h.Write([]byte{'\n'})
	}
	// The base side's use cases may be in files the head side lacks: the
	// patch's Dart files in the app are read on both sides.
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for _, p := range job.Patch {
		if p.Old != "" && strings.HasSuffix(p.Old, ".dart") && within(app, p.Old) && !seen[p.Old] {
			seen[p.Old] = true
			files = append(files, p.Old)
		}
	}
	job.Files = files
	fmt.Fprintf(h, "%q\n", files)
	job.Key = hex.EncodeToString(h.Sum(nil))
	return job, nil
}

// Bounds of a work tree: a hostile or huge working tree costs this much
// at most, and is refused past it, saying so.
const (
	maxCopyEntries = 20000
	maxCopyBytes   = 512 << 20
)

// copyTree copies the regular files of src (the working tree's root, or
// a work tree made before) into the directory dst, without the
// directories of tools and builds, links and devices, bounded, until ctx
// ends.
func copyTree(ctx context.Context, src fs.FS, dst *os.Root) error {
	entries, bytes := 0, int64(0)
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return nil // unreadable: not copied, as git would not see it either
		}
		if entries++; entries > maxCopyEntries {
			return fmt.Errorf("the working tree has more than %d files: too many to copy for the golden harness", maxCopyEntries)
		}
		if d.IsDir() {
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			if p != "." {
				return dst.Mkdir(p, 0o755)
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := src.Open(p)
		if err != nil {
			return nil
		}
		defer in.Close()
		fi, err := in.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		if bytes += fi.Size(); bytes > maxCopyBytes {
			return fmt.Errorf("the working tree holds more than %d MB: too much to copy for the golden harness", maxCopyBytes>>20)
		}
		out, err := dst.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o600)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, io.LimitReader(in, fi.Size()))
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// putBack makes the work tree dst, a copy of the head side, the base
// side: each file of the patch as its old side — the old blob read from
// the repository in dir with git (read-only), a new file removed, a
// rename reversed. The review's paths are data: dst's root confines
// every write to the work tree.
func putBack(git func(args ...string) ([]byte, error), dst *os.Root, files []PatchFile) error {
	for _, f := range files {
		for _, p := range []string{f.Old, f.New} {
			if p != "" && !fs.ValidPath(p) {
				return fmt.Errorf("the patch names %q: not a path inside the repository", p)
			}
		}
		var old []byte
		var err error
		switch {
		case f.Old == "":
		case f.Rename:
			if old, err = dst.ReadFile(f.New); err != nil {
				return fmt.Errorf("%s (renamed from %s): %v", f.New, f.Old, err)
			}
		case f.OldBlob != "":
			if old, err = git("cat-file", "blob", f.OldBlob); err != nil {
				return fmt.Errorf("the old side of %s: %v", f.Old, err)
			}
		}
		if f.New != "" {
			if err := dst.Remove(f.New); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("%s: %v", f.New, err)
			}
		}
		if f.Old == "" || !f.Rename && f.OldBlob == "" {
			continue
		}
		if dir := path.Dir(f.Old); dir != "." {
			if err := dst.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("%s: %v", f.Old, err)
			}
		}
		if err := dst.WriteFile(f.Old, old, 0o644); err != nil {
			return fmt.Errorf("%s: %v", f.Old, err)
		}
	}
	return nil
}
