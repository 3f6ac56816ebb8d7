package exchange

import "testing"

func TestSyntaxRefusal(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"none", `{"leanreview_review": 1}`, ""},
		{"one", "{\n  \"patch\": [\"a\" \"b\"]\n}\n", "cannot rebase: syntax error at line 2, column 17: missing ',' between array elements"},
		{"several", "{\n \"a\": 1 \"b\": 2 \"c\": 3}", "cannot rebase: syntax error at line 2, column 9: missing ',' between members (and 1 more)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Parse([]byte(c.src)).SyntaxRefusal("rebase")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
