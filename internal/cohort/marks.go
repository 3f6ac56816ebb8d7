package cohort

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// ProgressMember is the review's root member that keeps the progress
// marks: an extension member, which the format tolerates and this
// project's fmt, fix and rebase keep; other tools (leanreview's own
// rewrite among them) may drop it. Its value maps a cohort key to
// {"reviewed": FINGERPRINT, "files": [PATH...]}.
const ProgressMember = "x-lreview-cohorts"

// Mark is a cohort marked reviewed: the fingerprint of its files' changes
// when it was marked, and those files.
type Mark struct {
	Fingerprint string
	Files       []string
}

// state is what a mark says of cohort c now: "" for no mark, "reviewed",
// or "changed" when its files' changes are no longer those marked.
func (m Mark) state(c *Cohort, files []ChangedFile, idx map[string]int) string {
	if m.Fingerprint == "" {
		return ""
	}
	if m.Fingerprint == Fingerprint(c.Files, files, idx) {
		return "reviewed"
	}
	return "changed"
}

// Fingerprint is a digest of the changes of paths, each file's path and
// body lines: it changes when any of them does, and not when the patch
// moves or another file changes.
func Fingerprint(paths []string, files []ChangedFile, idx map[string]int) string {
	h := sha256.New()
	for _, p := range paths {
		f := &files[idx[p]]
		h.Write([]byte(f.Path + "\x00" + f.OldPath + "\x00"))
		f.changes(func(kind byte, text string) {
			h.Write([]byte{kind})
			h.Write([]byte(text))
			h.Write([]byte{'\n'})
		})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// FingerprintOf is the fingerprint of cohort c of shape s.
func (s *Shape) FingerprintOf(c *Cohort, in Input) string {
	idx := map[string]int{}
	for i, f := range in.Files {
		idx[f.Path] = i
	}
	return Fingerprint(c.Files, in.Files, idx)
}

// ReadMarks reads the progress marks of a review document; marks of
// another shape (a value not an object, a fingerprint not a string) are
// left out.
func ReadMarks(doc *exchange.Document) map[string]Mark {
	if doc == nil || doc.Root == nil {
		return nil
	}
	obj := doc.Root.Member(ProgressMember)
	if obj == nil || obj.Kind != exchange.KindObject {
		return nil
	}
	out := map[string]Mark{}
	for _, m := range obj.Members() {
		if m.Kind != exchange.KindObject {
			continue
		}
		fp := m.Member("reviewed")
		if fp == nil || fp.Kind != exchange.KindString {
			continue
		}
		mark := Mark{Fingerprint: fp.Str}
		if fs := m.Member("files"); fs != nil && fs.Kind == exchange.KindArray {
			for _, e := range fs.Elems() {
				if e.Kind == exchange.KindString {
					mark.Files = append(mark.Files, e.Str)
				}
			}
		}
		out[m.Name] = mark
	}
	return out
}

// MarkEdit returns the edit that marks cohort key reviewed with mark in
// doc (or, with a zero mark, removes its mark): the one member changed,
// everything else as it was.
func MarkEdit(doc *exchange.Document, key string, mark Mark) (exchange.Edit, bool) {
	root := doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return exchange.Edit{}, false
	}
	value := markValue(mark)
	obj := root.Member(ProgressMember)
	switch {
	case obj == nil && mark.Fingerprint == "":
		return exchange.Edit{}, false
	case obj == nil:
		return exchange.InsertMember(doc.Text, root, ProgressMember, "{"+jsontext.Quote(key)+": "+value+"}", ""), true
	case obj.Kind != exchange.KindObject:
		return exchange.Edit{}, false // not ours to overwrite
	case mark.Fingerprint == "":
		if m := obj.Member(key); m != nil {
			return exchange.RemoveMember(doc.Text, obj, m), true
		}
		return exchange.Edit{}, false
	}
	return exchange.SetMember(doc.Text, obj, key, value, ""), true
}

func markValue(m Mark) string {
	var b strings.Builder
	b.WriteString(`{"reviewed": `)
	b.WriteString(jsontext.Quote(m.Fingerprint))
	b.WriteString(`, "files": [`)
	files := slices.Clone(m.Files)
	slices.Sort(files)
	for i, f := range files {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsontext.Quote(f))
	}
	b.WriteString("]}")
	return b.String()
}
