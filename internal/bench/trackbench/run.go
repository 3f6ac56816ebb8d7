package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/bench/lspframe"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// setup is a repository ready to measure: the change committed (the
// working tree is its RIGHT image) and the review of it written beside.
type setup struct {
	root, reviewPath string
	review           []byte
	files            []string // the changed files, in the diff's order
	comments         []comment
	diffLines        int
}

// prepare commits root as it is, makes a change of nfiles files and a
// review of it with ncomments comments.
func prepare(root string, nfiles, ncomments int) (*setup, error) {
	if err := commitAll(root, "base"); err != nil {
		return nil, err
	}
	files, err := pickFiles(root, nfiles)
	if err != nil {
		return nil, err
	}
	diff, err := makeChange(root, files)
	if err != nil {
		return nil, err
	}
	right, order := rightLines(diff)
	s := &setup{root: root, files: order, comments: makeComments(right, order, ncomments, rand.New(rand.NewPCG(45, 45)))}
	patch := splitLines(diff)
	s.diffLines = len(patch)
	var cs []map[string]any
	for _, c := range s.comments {
		m := map[string]any{"id": c.id, "author": "trackbench", "path": c.path, "side": "RIGHT", "start_line": c.start, "body": fmt.Sprintf("%s is about line %d (`%s`).", c.id, c.start, strings.TrimSpace(c.text))}
		if c.end > c.start {
			m["end_line"] = c.end
		}
		cs = append(cs, m)
	}
	s.review, err = json.MarshalIndent(map[string]any{"leanreview_review": 1, "title": "trackbench", "patch": patch, "comments": cs}, "", "  ")
	if err != nil {
		return nil, err
	}
	s.reviewPath = filepath.Join(root, "track.review.json")
	return s, os.WriteFile(s.reviewPath, s.review, 0o644)
}

// step is what the checks of one kind of step found.
type step struct {
	name string
	// publishes checked, comments checked in them; wrong: on a line that
	// is not theirs and not outdated; missing: not published at all;
	// outdated, and of those intact: outdated though their lines are
	// there.
	publishes, checked, wrong, missing, outdated, intact int
	// badPublishes counts the publishes with a comment wrong or missing.
	badPublishes int
}

// run drives one server through the scenario.
type run struct {
	c         *lspframe.Client
	s         *setup
	reviewURI string
	docs      []*doc
	steps     []*step
	// examples are the first wrong placements, for the report.
	examples []string
	// initialRight counts the comments placed right before any edit.
	initialRight int
	firstPush    time.Duration
	keys, hovers []time.Duration
	// flickers counts the empty publishes seen on a file on disk
	// before its comments came.
	flickers int
}

// Scale: what is typed, pasted and moved.
type scale struct {
	keystrokes int   // typed above a comment, 8 lines
	pastes     []int // lines pasted at the top, one paste each
	editor     int   // files edited in the editor
	disk       int   // files changed on disk
	hovers     int
}

func (r *run) stepNamed(name string) *step {
	for _, s := range r.steps {
		if s.name == name {
			return s
		}
	}
	s := &step{name: name}
	r.steps = append(r.steps, s)
	return s
}

// check compares a publish on d with where d's comments must be.
func (r *run) check(d *doc, p publish, st *step) {
	st.publishes++
	bad := st.wrong + st.missing
	defer func() {
		if st.wrong+st.missing > bad {
			st.badPublishes++
		}
	}()
	byID := map[string]diagnostic{}
	for _, g := range p.Diagnostics {
		g.fromMessage(r.reviewURI)
		if g.Data.Review == r.reviewURI {
			byID[g.Data.Comment] = g
		}
	}
	for _, c := range d.comments {
		st.checked++
		g, ok := byID[c.id]
		es, ee, eok := d.expected(c)
		switch {
		case !ok:
			st.missing++
			r.example(fmt.Sprintf("%s: %s (%s:%d) not published", st.name, c.id, c.path, c.start))
		case g.Data.Outdated:
			st.outdated++
			if eok {
				st.intact++
			}
		default:
			s, e := g.lines()
			if !eok || s != es || e != ee {
				st.wrong++
				want := "outdated"
				if eok {
					want = fmt.Sprintf("%d–%d", es, ee)
				}
				there := ""
				if s >= 1 && s <= len(d.lines) {
					there = d.lines[s-1]
				}
				r.example(fmt.Sprintf("%s: %s (%s, %q) on %d–%d (%q), want %s (version %d)", st.name, c.id, c.path, c.text, s, e, there, want, d.version))
			}
		}
	}
}

func (r *run) example(s string) {
	if len(r.examples) < 12 {
		r.examples = append(r.examples, s)
	}
}

// start initializes the server on the repository and opens the review.
func (r *run) start() error {
	rootURI := fileuri.FromPath(r.s.root)
	_, err := r.c.Call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": filepath.Base(r.s.root)}},
		"capabilities": map[string]any{
			"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true}, "hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}},
			"workspace":    map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}, "workspaceFolders": true},
		},
	}, nil)
	if err != nil {
		return err
	}
	r.c.Notify("initialized", map[string]any{})
	r.reviewURI = fileuri.FromPath(r.s.reviewPath)
	r.c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": r.reviewURI, "languageId": "lreview", "version": 1, "text": string(r.s.review)}})
	return nil
}

// openAll opens every changed file, one after the other, each once the
// last one's comments came, and checks them.
func (r *run) openAll() error {
	byPath := map[string][]comment{}
	for _, c := range r.s.comments {
		byPath[c.path] = append(byPath[c.path], c)
	}
	st := r.stepNamed("open: before any edit")
	for i, rel := range r.s.files {
		path := filepath.Join(r.s.root, filepath.FromSlash(rel))
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		d := newDoc(fileuri.FromPath(path), path, string(data), byPath[rel])
		d.version = 1
		r.docs = append(r.docs, d)
		sent := time.Now()
		r.c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": d.uri, "languageId": "go", "version": 1, "text": string(data)}})
		if len(d.comments) == 0 {
			continue
		}
		p, at, err := awaitPublish(r.c, d.uri, func(p publish) bool {
			return p.Version != nil && *p.Version == 1 && r.count(p) == len(d.comments)
		})
		if err != nil && !errors.Is(err, lspframe.ErrTimeout) {
			return err
		}
		if i == 0 {
			r.firstPush = at.Sub(sent)
		}
		before := st.wrong + st.missing + st.outdated
		r.check(d, p, st)
		r.initialRight += len(d.comments) - (st.wrong + st.missing + st.outdated - before)
	}
	return nil
}

// count is how many of the review's comments a publish holds.
func (r *run) count(p publish) int {
	n := 0
	for _, g := range p.Diagnostics {
		g.fromMessage(r.reviewURI)
		if g.Data.Review == r.reviewURI {
			n++
		}
	}
	return n
}

// send sends one version's change of an open document and checks the
// publish of that version; it returns the time from sending to it.
func (r *run) send(d *doc, st *step, ch change) (time.Duration, error) {
	d.version++
	sent := time.Now()
	r.c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": d.uri, "version": d.version},
		"contentChanges": []any{ch.params()},
	})
	v := d.version
	p, at, err := awaitPublish(r.c, d.uri, func(p publish) bool { return p.Version != nil && *p.Version == v })
	if err != nil {
		return 0, fmt.Errorf("%s, version %d of %s: %w", st.name, v, d.path, err)
	}
	r.check(d, p, st)
	return at.Sub(sent), nil
}

// typeAbove types 8 lines, one keystroke a change, above d's first
// comment on a `}` line (else its first comment), as `o` then the line
// does: Enter at the end of the line above, then each character.
func (r *run) typeAbove(d *doc, keystrokes int) error {
	target := d.comments[0]
	for _, c := range d.comments {
		if strings.TrimSpace(c.text) == "}" {
			target = c
			break
		}
	}
	at, _, ok := d.expected(target)
	if !ok || at < 2 {
		return fmt.Errorf("typing: %s of %s is not in place", target.id, d.path)
	}
	texts := []string{"\tif err != nil {", "\t\treturn err", "\t}", "\tif err != nil {", "\t\treturn err", "\t}", "\t// typed above", "\t// "}
	n := len(texts) // the Enters
	for _, t := range texts {
		n += len(t)
	}
	for n < keystrokes {
		i := len(texts) - 2 + n%2
		texts[i] += "x"
		n++
	}
	st := r.stepNamed(fmt.Sprintf("typing 8 lines above %s (%q), a keystroke a publish", target.id, target.text))
	line := at - 2 // from 0: the line above the comment's
	for _, t := range texts {
		lat, err := r.send(d, st, d.typeAtEnd(line, "\n"))
		if err != nil {
			return err
		}
		r.keys = append(r.keys, lat)
		line++
		for _, ch := range t {
			lat, err := r.send(d, st, d.typeAtEnd(line, string(ch)))
			if err != nil {
				return err
			}
			r.keys = append(r.keys, lat)
		}
	}
	return nil
}

// An op is one edit of a file, made of changes: apply makes each on the
// harness's text and hands it to made, in order. In the editor each is a
// version of its own, checked; on disk the file is written once after
// all of them.
type op struct {
	name  string
	apply func(d *doc, made func(change) error) error
}

// ops are the pastes, deletions, a change of a comment's line and a
// move, each where d's comments are as the harness computes them.
func ops(sc scale) []op {
	var out []op
	pasted := 0
	for _, n := range sc.pastes {
		out = append(out, op{fmt.Sprintf("paste %d lines at the top", n), func(d *doc, made func(change) error) error {
			pasted += n
			return made(d.insertLines(0, cyclic(d.lines, n), nil))
		}})
	}
	out = append(out,
		op{"delete the pasted lines", func(d *doc, made func(change) error) error {
			ch, _, _ := d.deleteLines(0, min(pasted, len(d.lines)))
			pasted = 0
			return made(ch)
		}},
		op{"delete a comment's first line and the 2 above", func(d *doc, made func(change) error) error {
			s, ok := placedComment(d, len(d.comments)/2, 3)
			if !ok {
				return nil
			}
			ch, _, _ := d.deleteLines(s-3, s)
			return made(ch)
		}},
		op{"change a comment's line", func(d *doc, made func(change) error) error {
			s, ok := placedComment(d, len(d.comments)/3, 1)
			if !ok {
				return nil
			}
			return made(d.typeAtEnd(s-1, " // changed"))
		}},
		op{"insert `if err != nil { return err }` above a comment", func(d *doc, made func(change) error) error {
			s, ok := placedComment(d, len(d.comments)/4, 1)
			if !ok {
				return nil
			}
			return made(d.insertLines(s-1, []string{"\tif err != nil {", "\t\treturn err", "\t}"}, nil))
		}},
		op{"move a block of 15 lines holding a comment to the top", func(d *doc, made func(change) error) error {
			s, ok := placedComment(d, len(d.comments)*3/4, 6)
			if !ok {
				return nil
			}
			cut, lines, tags := d.deleteLines(s-6, min(s+9, len(d.lines)))
			if err := made(cut); err != nil {
				return err
			}
			return made(d.insertLines(0, lines, tags))
		}},
	)
	return out
}

// placedComment is the first line (from 1) of the k-th comment of d, or
// of the next one after it that is in place with at least above lines
// above it.
func placedComment(d *doc, k, above int) (int, bool) {
	for i := range d.comments {
		c := d.comments[(k+i)%len(d.comments)]
		if s, _, ok := d.expected(c); ok && s > above {
			return s, true
		}
	}
	return 0, false
}

// cyclic is n lines taken from lines, from the first, again from the
// first when they run out: a paste of the file's own `}` and
// `return err` lines.
func cyclic(lines []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = lines[i%len(lines)]
	}
	return out
}

// inEditor runs the ops on d as an editor's changes.
func (r *run) inEditor(d *doc, sc scale) error {
	for _, o := range ops(sc) {
		st := r.stepNamed("editor: " + o.name)
		err := o.apply(d, func(ch change) error {
			_, err := r.send(d, st, ch)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// onDisk closes d and runs the ops on it as writes of the file, each
// told by didChangeWatchedFiles.
func (r *run) onDisk(d *doc, sc scale) error {
	r.c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": d.uri}})
	closed := func(p publish) bool { return p.Version == nil }
	p, _, err := awaitPublish(r.c, d.uri, closed)
	if err != nil {
		return fmt.Errorf("closing %s: %w", d.path, err)
	}
	r.check(d, p, r.stepNamed("disk: closed, placed in the file"))
	for _, o := range ops(sc) {
		st := r.stepNamed("disk: " + o.name)
		changed := false
		_ = o.apply(d, func(change) error { changed = true; return nil })
		if !changed {
			continue
		}
		// Written as editors and git do, a new file renamed over the
		// old: the server never reads half of it.
		o, err := filewrite.Read(d.path)
		if err != nil {
			return err
		}
		if err := o.Replace([]byte(d.text())); err != nil {
			return err
		}
		r.c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": d.uri, "type": 2}}})
		// Every op leaves comments to publish: an empty publish is a
		// flicker (the comments vanish and come back), counted.
		p, _, err := awaitPublish(r.c, d.uri, func(p publish) bool {
			if closed(p) && len(p.Diagnostics) == 0 {
				r.flickers++
			}
			return closed(p) && len(p.Diagnostics) > 0
		})
		if err != nil && !errors.Is(err, lspframe.ErrTimeout) {
			return err
		}
		r.check(d, p, st)
	}
	return nil
}

// hover asks for the hover on d's comments' lines, n times in all.
func (r *run) hover(d *doc, n int) error {
	for i := 0; i < n && len(d.comments) > 0; i++ {
		s, _, ok := d.expected(d.comments[i%len(d.comments)])
		if !ok {
			continue
		}
		began := time.Now()
		m, err := r.c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": d.uri}, "position": map[string]any{"line": s - 1, "character": 0}}, nil)
		if err != nil {
			return err
		}
		r.hovers = append(r.hovers, time.Since(began))
		if i == 0 && string(m.Result) == "null" {
			return fmt.Errorf("hover on %s line %d (%s): null", d.path, s, d.comments[0].id)
		}
	}
	return nil
}

// scenario runs it all: open, hover, type, the ops in the editor on the
// first files and on disk on the next ones.
func (r *run) scenario(sc scale) error {
	if err := r.start(); err != nil {
		return err
	}
	if err := r.openAll(); err != nil {
		return err
	}
	byComments := slices.Clone(r.docs)
	slices.SortStableFunc(byComments, func(a, b *doc) int { return len(b.comments) - len(a.comments) })
	if err := r.hover(byComments[0], sc.hovers); err != nil {
		return err
	}
	if err := r.typeAbove(byComments[0], sc.keystrokes); err != nil {
		return err
	}
	for _, d := range byComments[:sc.editor] {
		if err := r.inEditor(d, sc); err != nil {
			return err
		}
	}
	for _, d := range byComments[sc.editor : sc.editor+sc.disk] {
		if err := r.onDisk(d, sc); err != nil {
			return err
		}
	}
	_, _ = r.c.Call("shutdown", nil, nil)
	r.c.Notify("exit", nil)
	return nil
}

// totals sums the steps after the opening.
func (r *run) totals() step {
	var t step
	for _, s := range r.steps {
		t.publishes += s.publishes
		t.checked += s.checked
		t.wrong += s.wrong
		t.missing += s.missing
		t.outdated += s.outdated
		t.intact += s.intact
		t.badPublishes += s.badPublishes
	}
	return t
}
