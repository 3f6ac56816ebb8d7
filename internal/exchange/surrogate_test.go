package exchange

import "testing"

func TestHasLoneSurrogate(t *testing.T) {
	for _, tc := range []struct {
		content string
		want    bool
	}{
		{`plain`, false},
		{`\ud83d\ude00`, false}, // a valid pair
		{`\uD83D\uDE00 and \n`, false},
		{`\\ud800`, false}, // an escaped backslash, then text
		{`\ud800`, true},
		{`x\udc00`, true},      // a low half alone
		{`\ude00\ud83d`, true}, // halves in the wrong order
		{`\ud83d\u0041`, true}, // a high half before a non-surrogate
		{`\ud83d\ude00\udbff`, true},
		{`\u00e9\"\\`, false},
	} {
		src := []byte(`"` + tc.content + `"`)
		if got := hasLoneSurrogate(src, 1, len(src)-1); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.content, got, tc.want)
		}
	}
}
