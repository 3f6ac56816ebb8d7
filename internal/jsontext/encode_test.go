package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestAppendStringContent: s spelt by AppendStringContent, quoted, is
// what encoding/json writes with HTML escaping off, byte for byte, for
// every control character, the characters JavaScript cannot read raw,
// invalid bytes, and random strings of all of them.
func TestAppendStringContent(t *testing.T) {
	pieces := []string{"a", "é", "😀", `"`, `\`, "/", "<", ">", "&", "\u2028", "\u2029", "\x7f", "\xff", "\xe2\x80", "\xed\xa0\x80", " "}
	for c := range 0x20 {
		pieces = append(pieces, string(rune(c)))
	}
	cases := append([]string{"", "plain ASCII only"}, pieces...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var s string
		for range r.IntN(12) {
			s += pieces[r.IntN(len(pieces))]
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := append(AppendStringContent([]byte(`x"`), s), '"', '\n')
		if string(got[1:]) != want.String() {
			t.Errorf("AppendStringContent(%q) = %s, want %s", s, got[1:], want.Bytes())
		}
	}
}
