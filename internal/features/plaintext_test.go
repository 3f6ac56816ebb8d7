package features

import "testing"

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"`side` — **Side** (required)\n\nWhich image.", "side — Side (required)\n\nWhich image."},
		{code("a`b") + " and " + code(" x"), "a`b and  x"},
		{"by **" + escape("a*b_[c]") + "**", "by a*b_[c]"},
		{"lines:\n```diff\n- 72     │ **x**\n+    72 >│ `y`\n```\nafter", "lines:\n- 72     │ **x**\n+    72 >│ `y`\nafter"},
		{"an unmatched ` stays", "an unmatched ` stays"},
	} {
		if got := PlainText(tc.md); got != tc.want {
			t.Errorf("PlainText(%q): got %q, want %q", tc.md, got, tc.want)
		}
	}
}
