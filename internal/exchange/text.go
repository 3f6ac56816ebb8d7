package exchange

import (
	"bytes"
	"sort"
)

// Text is the text of one version of a document: its bytes, held as
// pieces that never change once made. An edit makes a new Text that
// shares every piece the edit left whole with the one before
// (Replace), so that two versions of a large review hold its bytes
// once and a keystroke allocates its neighbourhood, not the file.
//
// Readers that need the bytes of a range ask for them (Slice): a view
// of a piece when the range lies in one, which is nearly always, a copy
// when it spans two.
type Text struct {
	pieces []piece
	size   int
}

// piece is a run of a Text's bytes and the offset of its first byte.
type piece struct {
	at int
	b  []byte
}

// NewText returns the text b, one piece. b must not be modified
// afterwards.
func NewText(b []byte) Text {
	if len(b) == 0 {
		return Text{}
	}
	return Text{pieces: []piece{{b: b}}, size: len(b)}
}

// Len returns the number of bytes.
func (t Text) Len() int { return t.size }

// Bytes returns all the bytes: the piece itself for a text of one, else
// a copy.
func (t Text) Bytes() []byte { return t.Slice(0, t.size) }

// find returns the index of the piece holding offset i, 0 <= i < t.size.
func (t Text) find(i int) int {
	if len(t.pieces) == 1 || i < len(t.pieces[0].b) {
		return 0
	}
	return sort.Search(len(t.pieces), func(k int) bool { return t.pieces[k].at > i }) - 1
}

// Byte returns the byte at offset i, which must be inside the text.
func (t Text) Byte(i int) byte {
	p := &t.pieces[t.find(i)]
	return p.b[i-p.at]
}

// Slice returns the bytes [from, to), clamped to the text: a view of the
// piece holding them, which the caller must not modify, or a new copy
// when they span pieces.
func (t Text) Slice(from, to int) []byte {
	from, to = max(0, min(from, t.size)), max(0, min(to, t.size))
	if to <= from {
		return nil
	}
	k := t.find(from)
	if p := &t.pieces[k]; to-p.at <= len(p.b) {
		return p.b[from-p.at : to-p.at : to-p.at]
	}
	out := make([]byte, 0, to-from)
	t.Each(from, to, func(b []byte, _ int) bool {
		out = append(out, b...)
		return true
	})
	return out
}

// Each calls fn with the pieces of [from, to) in order, each a view and
// the offset of its first byte, until fn returns false.
func (t Text) Each(from, to int, fn func(b []byte, at int) bool) {
	from, to = max(0, min(from, t.size)), max(0, min(to, t.size))
	if to <= from {
		return
	}
	for k := t.find(from); k < len(t.pieces) && t.pieces[k].at < to; k++ {
		p := &t.pieces[k]
		lo, hi := max(from-p.at, 0), min(to-p.at, len(p.b))
		if !fn(p.b[lo:hi:hi], p.at+lo) {
			return
		}
	}
}

// IndexByte returns the offset of the first c at or after from, or -1.
func (t Text) IndexByte(from int, c byte) int { return t.IndexByteIn(from, t.size, c) }

// IndexByteIn returns the offset of the first c in [from, to), or -1.
// The mapper asks it for the end of one line after another: it searches
// the pieces themselves, without a call per piece.
func (t Text) IndexByteIn(from, to int, c byte) int {
	from, to = max(0, min(from, t.size)), max(0, min(to, t.size))
	for from < to {
		p := &t.pieces[t.find(from)]
		end := min(to, p.at+len(p.b))
		if i := bytes.IndexByte(p.b[from-p.at:end-p.at], c); i >= 0 {
			return from + i
		}
		from = end
	}
	return -1
}

// String returns the bytes [from, to) as a string.
func (t Text) String(from, to int) string { return string(t.Slice(from, to)) }

// Equal reports whether the bytes [from, to) of t are those [ofrom,
// ofrom+to-from) of o.
func (t Text) Equal(from, to int, o Text, ofrom int) bool {
	if to-from != 0 && (from < 0 || to > t.size || ofrom < 0 || ofrom+to-from > o.size) {
		return false
	}
	same := true
	t.Each(from, to, func(b []byte, at int) bool {
		o.Each(ofrom+at-from, ofrom+at-from+len(b), func(ob []byte, oat int) bool {
			lo := oat - (ofrom + at - from)
			same = bytes.Equal(b[lo:lo+len(ob)], ob)
			return same
		})
		return same
	})
	return same
}

// Pieces bound how a Text is cut. A run of at most smallPiece bytes left
// beside an edit is copied into the edit's piece rather than kept as a
// view: typing in one place then keeps three pieces, the bytes before
// the edit's neighbourhood, that neighbourhood and the bytes after, and
// copies the neighbourhood per keystroke. Past maxPieces, after edits in
// many places, the text is made one piece again, once.
const (
	smallPiece = 4 << 10
	maxPieces  = 64
)

// Replace returns the text with the bytes [from, to) replaced by with,
// sharing the pieces and the parts of pieces it leaves whole. with is
// copied.
func (t Text) Replace(from, to int, with []byte) Text {
	from, to = max(0, min(from, t.size)), max(0, min(to, t.size))
	to = max(to, from)
	size := t.size - (to - from) + len(with)
	if size == 0 {
		return Text{}
	}
	// The run before the edit: whole pieces, then a part of one; those
	// of smallPiece bytes or less, at the end, join the edit's piece.
	var before []piece
	if from > 0 {
		k := t.find(from - 1)
		before = append(make([]piece, 0, len(t.pieces)+2), t.pieces[:k]...)
		p := t.pieces[k]
		before = append(before, piece{at: p.at, b: p.b[: from-p.at : from-p.at]})
	} else {
		before = make([]piece, 0, len(t.pieces)+2)
	}
	var after []piece
	if to < t.size {
		k := t.find(to)
		p := t.pieces[k]
		after = append(after, piece{at: to, b: p.b[to-p.at:]})
		after = append(after, t.pieces[k+1:]...)
	}
	// The edit's piece: with, and the small runs beside it.
	joinFrom := from
	for len(before) > 0 && from-before[len(before)-1].at <= smallPiece {
		joinFrom = before[len(before)-1].at
		before = before[:len(before)-1]
	}
	joinTo := to
	for len(after) > 0 && after[0].at+len(after[0].b)-to <= smallPiece {
		joinTo = after[0].at + len(after[0].b)
		after = after[1:]
	}
	mid := make([]byte, 0, from-joinFrom+len(with)+joinTo-to)
	mid = append(mid, t.Slice(joinFrom, from)...)
	mid = append(mid, with...)
	mid = append(mid, t.Slice(to, joinTo)...)
	pieces := before
	if len(mid) > 0 {
		pieces = append(pieces, piece{at: joinFrom, b: mid})
	}
	delta := len(with) - (to - from)
	for _, p := range after {
		pieces = append(pieces, piece{at: p.at + delta, b: p.b})
	}
	if len(pieces) > maxPieces {
		flat := Text{pieces: pieces, size: size}.Slice(0, size)
		return NewText(flat)
	}
	return Text{pieces: pieces, size: size}
}

// window is a run of a text's bytes: b holds the bytes from offset at on.
// What decodes a node's bytes reads them through one, in local offsets.
type window struct {
	b  []byte
	at int
}

// window returns the bytes [from, to) as a window: a view of a piece, or a
// copy of a range that spans pieces.
func (t Text) window(from, to int) window {
	from, to = max(0, min(from, t.size)), max(0, min(to, t.size))
	return window{b: t.Slice(from, to), at: from}
}

// prefix returns the text's first n bytes (all of them when it has no
// more).
func (t Text) prefix(n int) Text {
	if t.size <= n {
		return t
	}
	k := t.find(n - 1)
	pieces := append([]piece(nil), t.pieces[:k+1]...)
	last := &pieces[k]
	last.b = last.b[: n-last.at : n-last.at]
	return Text{pieces: pieces, size: n}
}

// lastLineBreak returns the offset of the last \n or \r before offset i,
// or -1.
func (t Text) lastLineBreak(i int) int {
	i = max(0, min(i, t.size))
	for k := len(t.pieces) - 1; k >= 0; k-- {
		p := &t.pieces[k]
		if p.at >= i {
			continue
		}
		if j := bytes.LastIndexAny(p.b[:min(i-p.at, len(p.b))], "\n\r"); j >= 0 {
			return p.at + j
		}
	}
	return -1
}

// inOnePiece reports whether the bytes [from, to) lie in one piece, so
// that Slice gives a view of them.
func (t Text) inOnePiece(from, to int) bool {
	if to <= from || len(t.pieces) <= 1 {
		return true
	}
	p := &t.pieces[t.find(max(from, 0))]
	return to-p.at <= len(p.b)
}
