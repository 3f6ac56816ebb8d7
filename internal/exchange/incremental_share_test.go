package exchange

import (
	"bytes"
	"runtime"
	"testing"
	"unsafe"
	"weak"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestParseEditedSharesUnmovedComments: the comments before an edit are
// the earlier version's own nodes, which the reader leaves as they are
// while that version reads them (run with -race); those after an edit
// that moves them are copies. An edit that keeps the length moves
// nothing: every comment but the edited one is shared.
func TestParseEditedSharesUnmovedComments(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 200, Comments: 12, Seed: 7})
	prev := Parse(src)
	before := shape(prev.Root)
	cs := prev.Review.Comments
	at := cs[5].Member("body").Start + 1
	for _, tc := range []struct {
		name  string
		del   int
		moved bool
	}{{"typed", 0, true}, {"replaced", 1, false}} {
		next := append(append(append([]byte(nil), src[:at]...), 'x'), src[at+tc.del:]...)
		done := make(chan string)
		go func() { done <- shape(prev.Root) }() // the earlier version, read meanwhile
		got, r := readEdited(NewText(next), prev, Change{Prefix: at, Suffix: len(src) - at - tc.del})
		if <-done != before || shape(prev.Root) != before {
			t.Fatalf("%s: the earlier version's tree changed", tc.name)
		}
		requireSameParse(t, got, tc.name)
		for i, c := range got.Review.Comments {
			shared := c.Node == cs[i].Node
			if want := i < 5 || i > 5 && !tc.moved; shared != want {
				t.Errorf("%s: comment %d is the earlier version's node: %v, want %v", tc.name, i, shared, want)
			}
		}
		if want := len(cs) - 1 - 6*btoi(tc.moved); r.tookShared != want || r.took != len(cs)-1 {
			t.Errorf("%s: took %d comments, %d of them shared; want %d, %d", tc.name, r.took, r.tookShared, len(cs)-1, want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestParseEditedCommentsKeepNoEarlierVersion: the comments taken from an
// earlier version, shared (before the edit) or copied (after it), keep
// neither its text, nor its tree, nor the block of the strings of the
// rest of its tree; a shared comment keeps its own strings.
func TestParseEditedCommentsKeepNoEarlierVersion(t *testing.T) {
	base := []byte(`{"leanreview_review": 1, "title": "t", "patch": [], "comments": [
  {"id": "c1", "path": "a", "side": "RIGHT", "start_line": 1, "body": "one\nline \u00e9", "n\u00e4me": 2.5e1},
  {"id": "c2", "path": "a", "side": "RIGHT", "start_line": 1, "body": "two"}
]}`)
	for _, tc := range []struct {
		edited string
		kept   int    // the comment taken from the earlier version
		body   string // its body
	}{{`"two`, 0, "one\nline é"}, {`"one`, 1, "two"}} {
		edited := tc.edited
		v1 := append([]byte(nil), base...)
		prev := Parse(v1)
		at := bytes.Index(base, []byte(edited)) + 1
		v2 := append(append(append([]byte(nil), base[:at]...), 'x'), base[at:]...)
		next, r := readEdited(NewText(v2), prev, Change{Prefix: at, Suffix: len(base) - at})
		if r.took != 1 {
			t.Fatalf("edit in %s: took %d comments, want the other one", edited, r.took)
		}
		requireSameParse(t, next, "edit in "+edited)
		kept := next.Review.Comments[tc.kept].Member("body").Str
		wsrc, wroot, wdoc := weak.Make(&v1[0]), weak.Make(prev.Root), weak.Make(prev)
		wkey := weak.Make(unsafe.StringData(prev.Root.Member("title").Str)) // in the block of the root's strings
		prev, v1, r = nil, nil, nil
		runtime.GC()
		runtime.GC()
		if wsrc.Value() != nil || wroot.Value() != nil || wdoc.Value() != nil || wkey.Value() != nil {
			t.Errorf("edit in %s: the earlier version is still alive: text %v, root %v, document %v, strings %v",
				edited, wsrc.Value() != nil, wroot.Value() != nil, wdoc.Value() != nil, wkey.Value() != nil)
		}
		if kept != tc.body {
			t.Errorf("edit in %s: the body taken reads %q, want %q", edited, kept, tc.body)
		}
		runtime.KeepAlive(next)
	}
}

// TestSharedCommentsKeepNoGarbageOfTheirEdits types in the last
// comment's body, or in turn in it and the one before, each version from
// the one before, as the server does. Every earlier version's root,
// document and block of root strings is collected; of the strings of the
// comments the edits read, one version's at most are alive (a copy moved
// by the next edit holds them); and the live heap does not grow with the
// edits. The blocks of the first version, a full read, hold the comments
// the others share: they stay.
func TestSharedCommentsKeepNoGarbageOfTheirEdits(t *testing.T) {
	const edits = 20
	src := reviewgen.Generate(reviewgen.Config{Files: 4, DiffLines: 400, Comments: 60, Seed: 3})
	for _, tc := range []struct {
		name    string
		comment func(edit int) int // which comment from the end edit types in
	}{
		{"last comment", func(int) int { return 1 }},
		{"two comments in turn", func(edit int) int { return 2 - edit%2 }}, // the last edit shares what the one before read
	} {
		doc := Parse(src)
		type version struct {
			root weak.Pointer[Node]
			doc  weak.Pointer[Document]
			key  weak.Pointer[byte] // a string of the root's, in its reader's blocks
			read weak.Pointer[byte] // a string of the comment its edit read, if any
		}
		var gone []version
		var heap []uint64
		read := ""
		for i := range edits {
			gone = append(gone, version{weak.Make(doc.Root), weak.Make(doc), weak.Make(unsafe.StringData(doc.Root.Member("title").Str)), weak.Make(unsafe.StringData(read))})
			cs := doc.Review.Comments
			k := len(cs) - tc.comment(i)
			at := cs[k].Member("body").Start + 1
			text := doc.Text.Bytes()
			next := append(append(append(make([]byte, 0, len(text)+1), text[:at]...), 'x'), text[at:]...)
			doc = ParseEdited(NewText(next), doc, Change{Prefix: at, Suffix: len(text) - at})
			read = doc.Review.Comments[k].Member("body").Str
			if i == 4 || i == edits-1 {
				runtime.GC()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = append(heap, ms.HeapAlloc)
			}
		}
		requireSameParse(t, doc, tc.name)
		alive := 0
		for i, v := range gone {
			if v.root.Value() != nil || v.doc.Value() != nil || v.key.Value() != nil {
				t.Errorf("%s: version %d: root %v, document %v, root strings %v still alive", tc.name, i, v.root.Value() != nil, v.doc.Value() != nil, v.key.Value() != nil)
			}
			if i > 0 && v.read.Value() != nil {
				alive++
			}
		}
		if alive > 1 {
			t.Errorf("%s: the strings of the comments %d versions read are alive, want one version's at most", tc.name, alive)
		}
		if grown := int64(heap[1]) - int64(heap[0]); grown > 256<<10 {
			t.Errorf("%s: the live heap grew by %d KB over %d edits", tc.name, grown>>10, edits-5)
		}
		runtime.KeepAlive(doc)
	}
}
