package exchange

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a/r.json\n+++ b/r.json\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"inserted lines", "a\nb\n", "a\nx\ny\nb\n", "--- a/r.json\n+++ b/r.json\n@@ -1,2 +1,4 @@\n a\n+x\n+y\n b\n"},
		{"inserted in a line", "{\"a\": 1}\n", "{\"a\": 1, \"b\": 2}\n", "--- a/r.json\n+++ b/r.json\n@@ -1,1 +1,1 @@\n-{\"a\": 1}\n+{\"a\": 1, \"b\": 2}\n"},
		{"appended at the end", "a\n", "a\nb\n", "--- a/r.json\n+++ b/r.json\n@@ -1,1 +1,2 @@\n a\n+b\n"},
		{"into an empty file", "", "a\n", "--- a/r.json\n+++ b/r.json\n@@ -0,0 +1,1 @@\n+a\n"},
		{"no final newline", "a\nb", "a\nc", "--- a/r.json\n+++ b/r.json\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"two hunks far apart", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			"--- a/r.json\n+++ b/r.json\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
		{"CRLF and emoji", "a\r\n😀\r\nb\r\n", "a\r\n😀🙂\r\nb\r\n", "--- a/r.json\n+++ b/r.json\n@@ -1,3 +1,3 @@\n a\r\n-😀\r\n+😀🙂\r\n b\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Unified("r.json", []byte(tc.before), []byte(tc.after))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestUnifiedApplies applies the diff of random changes to the text
// before and gets the text after.
func TestUnifiedApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "{", "}", "\"x\": 1,", "", "😀"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte('\n')
		}
		s := b.String()
		if rng.IntN(4) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}
	for i := range 500 {
		before := text(rng.IntN(30))
		lines := strings.SplitAfter(before, "\n")
		for range rng.IntN(4) + 1 {
			k := rng.IntN(len(lines) + 1)
			switch rng.IntN(3) {
			case 0:
				lines = append(lines[:k], append([]string{text(rng.IntN(3) + 1)}, lines[k:]...)...)
			case 1:
				if k < len(lines) {
					lines = append(lines[:k], lines[k+1:]...)
				}
			default:
				if k < len(lines) {
					lines[k] = words[rng.IntN(len(words))] + lines[k]
				}
			}
		}
		after := strings.Join(lines, "")
		diff := Unified("r.json", []byte(before), []byte(after))
		got, err := applyUnified(before, diff)
		if err != nil || got != after {
			t.Fatalf("case %d: %v\nbefore %q\nafter %q\ndiff\n%s\napplied %q", i, err, before, after, diff, got)
		}
	}
}

// applyUnified applies a diff Unified wrote to before.
func applyUnified(before, diff string) (string, error) {
	if diff == "" {
		return before, nil
	}
	old := strings.SplitAfter(before, "\n")
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	var out []string
	at := 0
	lines := strings.SplitAfter(diff, "\n")[2:]
	for i := 0; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@ ") {
			var a, b, c, d int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d); err != nil {
				return "", err
			}
			start := a - 1
			if b == 0 {
				start = a
			}
			for ; at < start; at++ {
				out = append(out, old[at])
			}
			continue
		}
		body := l[1:]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\ No newline") {
			body = strings.TrimSuffix(body, "\n")
			i++
		}
		switch l[0] {
		case ' ', '-':
			if at >= len(old) || old[at] != body {
				return "", fmt.Errorf("line %s: got %q, want %q", strconv.Itoa(at+1), body, old[min(at, len(old)):])
			}
			if l[0] == ' ' {
				out = append(out, body)
			}
			at++
		case '+':
			out = append(out, body)
		}
	}
	out = append(out, old[at:]...)
	return strings.Join(out, ""), nil
}
