package anchor

import (
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// Line keys: a hash of a line's text without its white space, which the
// search index (search_index.go) files each line under, so that a needle
// line finds the lines equal to it, white space aside, in one lookup.
// Hashing is most of what indexing a side costs, so it reads the line
// eight bytes at a time and drops the white space of a word with masks.
// Keys only narrow the lines a search compares: a collision costs a
// comparison, never a wrong match.

// keyHash hashes a stream of bytes fed in runs: full eight-byte blocks of
// the stream are mixed in as they fill, so that the key depends on the
// bytes alone, not on how they were cut into runs. looseKey feeds it byte
// by byte; lineKey does what run does by hand, to keep the state in
// registers.
type keyHash struct {
	h, acc uint64
	fill   uint // bytes in acc, 0 to 7
	n      uint // bytes fed
}

const (
	keyMul1 = 0xa0761d6478bd642f
	keyMul2 = 0xe7037ed1a0b428db
)

// mum is a 64×64→128-bit multiply folded to 64 bits.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// run feeds the k low bytes of w (0 ≤ k ≤ 8; the bytes above them zero).
// The mix is computed whether or not a block fills, so that the choice is
// a select rather than a branch on the data.
func (kh keyHash) run(w uint64, k uint) keyHash {
	acc := kh.acc | w<<(8*kh.fill)
	h := mum(kh.h^acc^keyMul2, keyMul1)
	fill := kh.fill + k
	if fill >= 8 {
		kh.h, acc, fill = h, w>>(8*(8-kh.fill)), fill-8 // a shift of 64 gives 0
	}
	return keyHash{h: kh.h, acc: acc, fill: fill, n: kh.n + k}
}

// sum is the key of the bytes fed.
func (kh keyHash) sum() uint64 {
	return mum(kh.h^kh.acc^keyMul1, keyMul2^uint64(kh.n))
}

// SWAR constants: a byte of 0x01s and of 0x80s in every lane.
const (
	lanes01 = 0x0101010101010101
	lanes80 = 0x8080808080808080
)

// below marks (0x80 in its lane) each byte of ASCII word w below c (c ≤ 0x80).
// Every lane of w|lanes80 is at least 0x80, so no subtraction borrows
// across lanes and the marks are exact.
func below(w uint64, c byte) uint64 {
	return ^((w | lanes80) - lanes01*uint64(c)) & lanes80
}

// asciiSpace marks the white space bytes of ASCII word w: ' ' and "\t\n\v\f\r".
func asciiSpace(w uint64) uint64 {
	return below(w, 0x21)&^below(w, 0x20) | below(w, 0x0e)&^below(w, 0x09)
}

// compactWord returns the bytes of ASCII word w that are not white space
// and their count, without a branch: each kept byte moves down by the
// number of white space bytes below it, in steps of 1, 2 and 4 bytes, the
// way Hacker's Delight compresses bits (no lane lands on a kept one). The
// steps' masks depend on where the white space is alone, so they come
// from a table indexed by it.
func compactWord(w uint64) (uint64, uint) {
	space := asciiSpace(w)
	t := &compactSteps[(space>>7)*0x0102040810204080>>56] // one bit a lane
	x := w & t.keep
	x = x&^t.m1 | (x&t.m1)>>8
	x = x&^t.m2 | (x&t.m2)>>16
	x = x&^t.m4 | (x&t.m4)>>32
	return x, uint(t.n)
}

// compactStep is what compactWord does for one placement of white space in
// a word: the lanes kept, the lanes moved by each step, and the count kept.
type compactStep struct {
	keep, m1, m2, m4 uint64
	n                uint8
}

// compactSteps holds the steps for each placement (bit i: lane i is white
// space). A lane's distance z (white space lanes below it) rides along in
// a second word, moved by the same steps, so that each step knows which
// lanes still have its bit of z to travel.
var compactSteps = func() (t [256]compactStep) {
	for mask := range t {
		var space uint64
		for lane := range 8 {
			if mask>>lane&1 == 1 {
				space |= 0x80 << (8 * lane)
			}
		}
		st := &t[mask]
		st.keep = (^space & lanes80 >> 7) * 0xff
		st.n = uint8(8 - bits.OnesCount64(space))
		z := (space >> 7) * lanes01 & st.keep
		st.m1 = (z & lanes01) * 0xff
		z = z&^st.m1 | (z&st.m1)>>8
		st.m2 = (z >> 1 & lanes01) * 0xff
		z = z&^st.m2 | (z&st.m2)>>16
		st.m4 = (z >> 2 & lanes01) * 0xff
	}
	return t
}()

// lineKey is looseKey(normLine(s)) without normalising s: the key of s
// without its white space, and whether s is blank. It reads s a word at a
// time, decodes runes only outside ASCII, and keeps the hash state in
// registers (keyHash's fields, inlined by hand); a line with invalid UTF-8
// takes the long way, so that the keys agree with normLine to the byte.
func lineKey[T string | []byte](seed uint64, s T) (uint64, bool) {
	h, acc, fill, n := seed, uint64(0), uint(0), uint(0)
	for i := 0; i < len(s); {
		var w uint64
		if i+8 <= len(s) {
			b := s[i : i+8]
			w = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		} else if len(s) >= 8 {
			// The last word of the line, read as the eight bytes that end it,
			// shifted down past those already read.
			b := s[len(s)-8:]
			w = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			left := uint(len(s) - i) // 1 to 7
			w = w>>(64-8*left) | 0x2020202020202020<<(8*left)
		} else {
			w = tailWord(s[i:])
		}
		var x uint64
		var k uint
		if high := w & lanes80; high == 0 {
			// compactWord, by hand: most words take this way.
			t := &compactSteps[(asciiSpace(w)>>7)*0x0102040810204080>>56]
			x = w & t.keep
			x = x&^t.m1 | (x&t.m1)>>8
			x = x&^t.m2 | (x&t.m2)>>16
			x, k = x&^t.m4|(x&t.m4)>>32, uint(t.n)
			i += 8
		} else if ascii := uint(bits.TrailingZeros64(high)) >> 3; ascii > 0 {
			// The ASCII bytes before the first non-ASCII one.
			x, k = compactWord(w&(^uint64(0)>>(64-8*ascii)) | 0x2020202020202020<<(8*ascii))
			i += int(ascii)
		} else {
			r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			if r == utf8.RuneError && size == 1 {
				norm := normLine(string(s))
				return looseKey(seed, norm), norm == ""
			}
			if !unicode.IsSpace(r) {
				x, k = w&(^uint64(0)>>(64-8*size)), uint(size)
			}
			i += size
		}
		// keyHash.run, by hand.
		a := acc | x<<(8*fill&63)
		mixed := mum(h^a^keyMul2, keyMul1)
		if fill+k >= 8 {
			h, a = mixed, x>>(8*(7-fill)&63)>>8
		}
		acc, fill, n = a, (fill+k)&7, n+k
	}
	kh := keyHash{h: h, acc: acc, fill: fill, n: n}
	return kh.sum(), n == 0
}

// tailWord reads the last bytes of a line (fewer than eight) as a
// little-endian word; the bytes past the end read as spaces, which
// compactWord drops.
func tailWord[T string | []byte](s T) uint64 {
	w := uint64(0x2020202020202020)
	for j := len(s) - 1; j >= 0; j-- {
		w = w<<8 | uint64(s[j])
	}
	return w
}

// looseKey is the key of normalised line s without its white space:
// normLine leaves single ASCII spaces only.
func looseKey(seed uint64, s string) uint64 {
	kh := keyHash{h: seed}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			kh = kh.run(uint64(s[i]), 1)
		}
	}
	return kh.sum()
}
