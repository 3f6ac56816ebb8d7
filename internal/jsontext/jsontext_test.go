package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

var stringCases = []struct {
	name, in string // in is a string's spelling, quotes included
	err      error
}{
	{"plain", `"abc"`, nil},
	{"empty", `""`, nil},
	{"long plain", `"` + strings.Repeat("abcdefgh", 9) + `"`, nil},
	{"utf-8", `"é😀 x"`, nil},
	{"one-letter escapes", `"a\"b\\c\/d\be\ff\ng\rh\ti"`, nil},
	{"unicode escape", `"\u00e9\u20AC"`, nil},
	{"surrogate pair", `"\ud83d\ude00!"`, nil},
	{"lone surrogate", `"\ud83d x"`, nil},
	{"lone low surrogate", `"\ude00"`, nil},
	{"escape after a long run", `"` + strings.Repeat("x", 17) + `\n"`, nil},
	{"unterminated", `"abc`, ErrUnterminated},
	{"ends in a backslash", `"abc\`, ErrEscape},
	{"control character", "\"a\tb\"", ErrControl},
	{"bad escape", `"a\qb"`, ErrEscape},
	{"short unicode escape", `"\u12"`, ErrEscape},
	{"bad hex", `"\u12g4"`, ErrEscape},
}

// TestUnescapeAgreesWithEncodingJSON decodes each string in place and onto
// a buffer, and compares with encoding/json; a bad one must fail with the
// error the table names.
func TestUnescapeAgreesWithEncodingJSON(t *testing.T) {
	for _, tt := range stringCases {
		t.Run(tt.name, func(t *testing.T) {
			var want string
			jsonErr := json.Unmarshal([]byte(tt.in), &want)
			got, next, err := AppendString([]byte("pre"), []byte(tt.in), 1)
			b := []byte(tt.in)
			n, nextIn, errIn := Unescape(b, 1)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !errors.Is(errIn, tt.err) || jsonErr == nil {
					t.Fatalf("got errors %v and %v (encoding/json: %v), want %v", err, errIn, jsonErr, tt.err)
				}
				return
			}
			if err != nil || errIn != nil || jsonErr != nil {
				t.Fatalf("got errors %v and %v (encoding/json: %v), want none", err, errIn, jsonErr)
			}
			if string(got) != "pre"+want || string(b[1:1+n]) != want {
				t.Errorf("got %q and in place %q, want %q", got[3:], b[1:1+n], want)
			}
			if next != len(tt.in) || nextIn != len(tt.in) {
				t.Errorf("next: got %d and %d, want %d", next, nextIn, len(tt.in))
			}
		})
	}
}

// TestPlainAgreesWithAByteLoop compares the word-at-a-time scans with a
// byte loop: every byte at every offset of blocks of each kind of plain
// byte, and random blocks of special bytes and their neighbours (borrows
// included), from every start.
func TestPlainAgreesWithAByteLoop(t *testing.T) {
	check := func(b []byte) {
		for from := 0; from <= len(b); from++ {
			for _, ascii := range []bool{false, true} {
				want := from
				for want < len(b) {
					c := b[want]
					if c == '"' || c == '\\' || c < 0x20 || ascii && c >= 0x80 {
						break
					}
					want++
				}
				if got := scan(b, from, ascii); got != want {
					t.Fatalf("%q from %d, ascii %v: got %d, want %d", b, from, ascii, got, want)
				}
			}
		}
	}
	for c := range 256 {
		for _, fill := range []byte{'a', 0x20, 0x7f, 0x80, 0xff, 0x21, 0x5b, 0x5d} {
			for at := range 20 {
				b := bytes.Repeat([]byte{fill}, 20)
				b[at] = byte(c)
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte{0, 0x1f, 0x20, 0x21, '"', '\\', 0x5b, 0x5d, 0x7f, 0x80, 0xff, 'a', 0x01, 0x02}
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for k := range b {
			b[k] = alphabet[r.IntN(len(alphabet))]
		}
		check(b)
	}
}

// TestSkipStringInChunks skips a string fed in chunks cut everywhere,
// escapes split between two included, and requires the closing quote
// found where it is.
func TestSkipStringInChunks(t *testing.T) {
	for _, content := range []string{`abc"`, `a\"b"`, `a\\"`, `a\\\"b"`, `\\\\"`, `x\u0022y"`} {
		end := len(content)
		for cut := 0; cut <= len(content); cut++ {
			b := []byte(content)
			next, open, pending := SkipString(b[:cut], 0, false)
			if !open {
				if next != end || cut < end {
					t.Fatalf("%s cut at %d: closed at %d, want %d", content, cut, next, end)
				}
				continue
			}
			next, open, _ = SkipString(b[cut:], 0, pending)
			if open || cut+next != end {
				t.Fatalf("%s cut at %d: second chunk closed at %d (open %v), want %d", content, cut, cut+next, open, end)
			}
		}
	}
}
