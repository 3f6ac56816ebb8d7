package worktree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// An editor's buffer of a source file stands in for the file on disk:
// the comments of a review follow the text a person is typing, not the
// last save. A buffer is a File like any other (Tree.Overlay), located
// through the same engine.

// Rel returns the path under the tree's root of the absolute file name
// abs, with forward slashes, as a review names it; ok is false for a
// name outside the root.
func (t *Tree) Rel(abs string) (string, bool) {
	for _, dir := range []string{t.dir, t.root} {
		if !Within(dir, abs) {
			continue
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil || rel == "." {
			continue
		}
		return filepath.ToSlash(rel), true
	}
	return "", false
}

// Buffer returns the file at abs with text in place of what the disk
// holds; m, when not nil, is a mapper of that text the editor's buffer
// already has (the file's Mapper then). The name must be one the tree
// reads (Resolve): a buffer outside the root, or under it through a
// symbolic link that leads out, is refused, as its file on disk would be.
func (t *Tree) Buffer(abs, text string, m *exchange.Mapper) (*File, error) {
	return t.EditedBuffer(abs, text, m, nil, nil)
}

// EditedBuffer is Buffer for a text that is base's (an earlier version
// of the same buffer, in the same tree) after edits: where base had a
// file diff's lines tracked, the new file has them moved through the
// edits (anchor.LineTrack.Edited), not looked for again.
func (t *Tree) EditedBuffer(abs, text string, m *exchange.Mapper, base *File, edits []anchor.TextEdit) (*File, error) {
	rel, ok := t.Rel(abs)
	if !ok {
		return nil, fmt.Errorf("%s: %w", abs, ErrOutside)
	}
	name, err := t.Resolve(rel)
	if err != nil {
		return nil, err
	}
	if len(text) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", rel, ErrTooLarge)
	}
	if strings.IndexByte(text[:min(len(text), 8000)], 0) >= 0 {
		return nil, fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	f := &File{Path: rel, Abs: name, Text: text, Size: int64(len(text))}
	f.split()
	if m != nil {
		f.mapOnce.Do(func() { f.mapper = m })
	}
	if base != nil && base.Abs == f.Abs && base.Path == f.Path {
		base.tracks.each(func(fd *anchor.FileDiff, tr *anchor.LineTrack) {
			f.tracks.store(fd, tr.Edited(edits))
		})
	}
	return f, nil
}

// Overlay returns t pinned (Pinned) in which each of files is
// what reading its path gives, whatever the disk holds.
func (t *Tree) Overlay(files ...*File) *Tree {
	s := t
	if s.reads == nil {
		s = t.Pinned()
	}
	s.reads.mu.Lock()
	defer s.reads.mu.Unlock()
	for _, f := range files {
		s.reads.m[f.Path] = readResult{f: f}
	}
	return s
}
