package jsontext

import (
	"fmt"
	"strings"
	"testing"
)

func TestUnicodeEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, ``},
		{`a\u003cb`, `1:3c`},
		{`\\u003c`, ``}, // an escaped backslash, then text
		{`\\\u003c`, `2:3c`},
		{`\ud83d\ude00x\u0026`, `0:d83d 13:26`}, // a pair, reported once at its high half
		{`\ud800`, `0:d800!`},
		{`\ude00\ud800x`, `0:de00! 6:d800!`},
		{`\ud800\u0041`, `0:d800! 6:41`},
		{`\u12`, ``},
		{`\uZZZZ\u003e`, `6:3e`},
		{`\`, ``},
		{`\"\u0041`, `2:41`},
	}
	for _, tt := range tests {
		var got []string
		UnicodeEscapes([]byte(tt.in), func(at int, unit rune, lone bool) bool {
			s := fmt.Sprintf("%d:%x", at, unit)
			if lone {
				s += "!"
			}
			got = append(got, s)
			return true
		})
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("UnicodeEscapes(%s): got %q, want %q", tt.in, g, tt.want)
		}
	}
	n := 0
	UnicodeEscapes([]byte(`\u0041\u0042`), func(int, rune, bool) bool { n++; return false })
	if n != 1 {
		t.Errorf("got %d calls after fn returned false, want 1", n)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"": `""`, `a"b\c`: `"a\"b\\c"`, "<&>\n\u2028\xff": `"<&>\n\u2028\ufffd"`} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q): got %s, want %s", in, got, want)
		}
	}
}
