package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// argError is a refused argument: the member at fault and what was
// expected.
func argError(member, format string, args ...any) error {
	return fmt.Errorf("%s: %s", member, fmt.Sprintf(format, args...))
}

// resolve returns the path of the file member names, relative to the
// root, refused when it is empty or lies outside the root once symbolic
// links are resolved. A file that does not exist yet is placed by its
// directory, which must.
func (s *server) resolve(member, name string) (string, error) {
	if name == "" {
		return "", argError(member, "expected a file path (relative to %s, or absolute inside it), got an empty string", s.root)
	}
	p := name
	if path, err := fileuri.ToPath(name); err == nil {
		p = path // a file: URI, as MCP clients name roots and resources
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		dir, derr := filepath.EvalSymlinks(filepath.Dir(p))
		if derr != nil {
			return "", argError(member, "the directory of %s does not exist", name)
		}
		real = filepath.Join(dir, filepath.Base(p))
	} else if err != nil {
		return "", argError(member, "cannot read %s: %v", name, err)
	}
	if !worktree.Within(s.root, real) {
		return "", argError(member, "%s is outside the server's root %s (its working directory or --root): only files inside it are read or written", name, s.root)
	}
	return real, nil
}

// display names a resolved path in messages: relative to the root.
func (s *server) display(path string) string {
	if rel, err := filepath.Rel(s.root, path); err == nil {
		return rel
	}
	return path
}

// review is a review file read to be rewritten.
type review struct {
	orig *filewrite.Original
	name string // for messages
	doc  *exchange.Document
}

// readReview reads the review file member names, refusing one too large
// to be a review and, when strict, one with syntax errors (an edit would
// land on a guess, and its comments are a guess too).
func (s *server) readReview(member, name string, strict bool) (*review, error) {
	path, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err != nil {
		return nil, argError(member, "cannot read %s: %v", name, unwrapPath(err))
	} else if fi.Mode().IsRegular() && fi.Size() > exchange.MaxSource {
		return nil, argError(member, "%s has %d bytes, more than the %d a review can have", name, fi.Size(), exchange.MaxSource)
	}
	orig, err := filewrite.Read(path)
	if err != nil {
		return nil, argError(member, "%v", err)
	}
	r := &review{orig: orig, name: s.display(path), doc: exchange.Parse(orig.Data)}
	if strict && len(r.doc.Syntax) > 0 {
		e := r.doc.Syntax[0]
		line, col := r.doc.Mapper().LineCol(e.Start)
		return nil, argError(member, "%s is not valid JSON (line %d, column %d: %s): fix it first; lreview_check lists the problems", r.name, line, col, e.Msg)
	}
	if strict && r.doc.Review.Node == nil {
		return nil, argError(member, "%s is not a review exchange document: its root is not a JSON object", r.name)
	}
	return r, nil
}

// write replaces the review with data, refused when the file changed
// since it was read.
func (s *server) write(r *review, data []byte) error {
	if s.beforeWrite != nil {
		s.beforeWrite(r.orig.Name)
	}
	if err := r.orig.Replace(data); err != nil {
		if errors.Is(err, filewrite.ErrChanged) {
			return fmt.Errorf("file: %s changed since it was read (a person may be editing it); nothing written: read it again (lreview_comments) and retry", r.name)
		}
		return fmt.Errorf("file: %v", err)
	}
	return nil
}

// edited returns the review's text with edits applied; an error is a bug
// of the edits' maker, not of the file.
func edited(r *review, edits []exchange.Edit) ([]byte, error) {
	out, err := exchange.ApplyEdits(r.orig.Data, edits)
	if err != nil {
		return nil, fmt.Errorf("file: %s: internal error, nothing written: %v", r.name, err)
	}
	return out, nil
}

// apply applies edits to the review and writes it.
func (s *server) apply(r *review, edits []exchange.Edit) ([]byte, error) {
	out, err := edited(r, edits)
	if err != nil {
		return nil, err
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
	path, err := s.resolve("diff_file", file)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, argError("diff_file", "cannot read %s: %v", file, unwrapPath(err))
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
