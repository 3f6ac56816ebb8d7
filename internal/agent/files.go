package agent

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path/filepath"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
)

// argError is a refused argument: the member at fault and what was
// expected.
func argError(member, format string, args ...any) error {
	return fmt.Errorf("%s: %s", member, fmt.Sprintf(format, args...))
}

// resolve returns the path of the file member names, relative to the
// root, refused when it is empty or names a place outside the root in its
// words ("..", an absolute path elsewhere). Every file is then read or
// written through the root (s.files, an os.Root), never by this name
// alone: a symbolic link or a directory swapped for one that leads out of
// the root is refused when the file is opened (outsideError).
func (s *server) resolve(member, name string) (string, error) {
	if name == "" {
		return "", argError(member, "expected a file path (relative to %s, or absolute inside it), got an empty string", s.root)
	}
	if path, err := fileuri.ToPath(name); err == nil {
		name = path // a file: URI, as MCP clients name roots and resources
	}
	rel := filepath.Clean(name)
	if filepath.IsAbs(rel) {
		r, err := filepath.Rel(s.root, rel)
		if err != nil || !filepath.IsLocal(r) {
			// The name may reach the root through a link (/tmp for
			// /private/tmp): the directory's real name tells. It only
			// translates the name; the file is opened through the root.
			if dir, derr := filepath.EvalSymlinks(filepath.Dir(rel)); derr == nil {
				r, err = filepath.Rel(s.root, filepath.Join(dir, filepath.Base(rel)))
			}
		}
		if err != nil {
			r = rel
		}
		rel = r
	}
	if !filepath.IsLocal(rel) {
		return "", s.outside(member, name)
	}
	return rel, nil
}

// outside is the refusal of a file outside the root.
func (s *server) outside(member, name string) error {
	return argError(member, "%s is outside the server's root %s (its working directory or --root): only files inside it are read or written", name, s.root)
}

// fileError words an error of reading or writing the file member names.
func (s *server) fileError(member, name string, err error) error {
	if errors.Is(err, filewrite.ErrOutside) {
		return s.outside(member, name)
	}
	return argError(member, "%v", err)
}

// display names a file in messages: its path relative to the root.
func (s *server) display(rel string) string { return filepath.ToSlash(rel) }

// relative is abs, a name under the root (a working tree's, or one of its
// files'), relative to the root; false when it is not under it.
func (s *server) relative(abs string) (string, bool) {
	rel, err := filepath.Rel(s.root, abs)
	return rel, err == nil && filepath.IsLocal(rel) || rel == "."
}

// review is a review file as a tool call reads it: one version
// (reviewfile.Version, shared through the cache), with what a call adds —
// its name in messages and the cache's key, the file as read to be
// rewritten, and what the call wrote.
type review struct {
	orig *filewrite.Original // nil when read only (readCached)
	name string              // for messages
	doc  *exchange.Document  // v's document
	path string              // relative to the root: the key of the queue and the cache
	v    *reviewfile.Version
	out  *outputs // what the read-only tools list from v (store.go)
	// written is the version the tool wrote, once it has; change, when
	// set, where its one edit was (the version written is then analysed
	// as an edit of v).
	written *reviewfile.Version
	change  *exchange.Change
}

// readReview reads the review file member names, refusing one too large
// to be a review and, when strict, one with syntax errors (an edit would
// land on a guess, and its comments are a guess too).
func (s *server) readReview(member, name string, strict bool) (*review, error) {
	rel, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	orig, err := filewrite.ReadIn(s.files, rel)
	if err != nil {
		return nil, s.fileError(member, name, err)
	}
	v := s.cache.Held(rel, reviewfile.IDOf(orig.Info()), orig.Data)
	r := &review{orig: orig, name: s.display(rel), doc: v.Document(), path: rel, v: v, out: s.outputsOf(rel, v)}
	if err := r.refuse(member, strict); err != nil {
		return nil, err
	}
	return r, nil
}

// refuse refuses what is not a review and, when strict, a review with
// syntax errors or whose root is not an object.
func (r *review) refuse(member string, strict bool) error {
	if err := notReview(r); err != nil {
		return err
	}
	if !strict {
		return nil
	}
	if err := r.doc.SyntaxRefusal("edit " + r.name); err != nil {
		return argError(member, "%v; fix it first: lreview_check lists the problems", err)
	}
	if r.doc.Review.Node == nil {
		return argError(member, "%s is not a review exchange document: its root is not a JSON object", r.name)
	}
	return nil
}

// analysis is the review checked and anchored, made once per version.
// The tools do not cancel it: a call that asked for it waits for it.
func (r *review) analysis() *anchor.Analysis {
	an, _ := r.v.Analysis(context.Background())
	return an
}

// checksum is the bytes' CRC-32, which page cursors carry, computed once
// per version.
func (r *review) checksum() uint32 {
	o := r.out
	o.sumOnce.Do(func() { o.sum = crc32.ChecksumIEEE(r.v.Bytes()) })
	return o.sum
}

// write replaces the review with data, refused when the file changed
// since it was read.
func (s *server) write(r *review, data []byte) error {
	if s.beforeWrite != nil {
		s.beforeWrite(filepath.Join(s.root, r.orig.Name))
	}
	if err := r.orig.Replace(data); err != nil {
		if errors.Is(err, filewrite.ErrChanged) {
			return fmt.Errorf("file: %s changed since it was read (a person may be editing it); nothing written: read it again (lreview_comments) and retry", r.name)
		}
		return fmt.Errorf("file: %v", err)
	}
	id := reviewfile.IDOf(r.orig.Written())
	if r.change != nil {
		r.written = r.v.Edited(id, data, *r.change)
	} else {
		r.written = reviewfile.New(id, data)
	}
	s.cache.Put(r.path, r.written)
	return nil
}

// apply applies edits to the review and writes it; an error applying
// them is a bug of the edits' maker, not of the file.
func (s *server) apply(r *review, edits []exchange.Edit) ([]byte, error) {
	out, err := exchange.ApplyEdits(r.orig.Data, edits)
	if err != nil {
		return nil, fmt.Errorf("file: %s: internal error, nothing written: %v", r.name, err)
	}
	if len(edits) == 1 {
		r.change = &exchange.Change{Prefix: edits[0].Start, Suffix: len(r.orig.Data) - edits[0].End}
	}
	return out, s.write(r, out)
}

// readDiff reads the diff of a tool taking diff_file or diff_text, exactly
// one of them.
func (s *server) readDiff(file, text string) ([]byte, error) {
	switch {
	case file != "" && text != "":
		return nil, argError("diff_file", "give diff_file or diff_text, not both")
	case file == "" && text == "":
		return nil, argError("diff_file", "expected the path of a unified diff (or diff_text, the diff itself)")
	case text != "":
		return []byte(text), nil
	}
	rel, err := s.resolve("diff_file", file)
	if err != nil {
		return nil, err
	}
	data, err := filewrite.ReadFileIn(s.files, rel)
	if err != nil {
		return nil, s.fileError("diff_file", file, err)
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
