package forge

import (
	"bufio"
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// Revisions reads a repository for an import: what a forge that does not
// move its comments (Forgejo, Gitea) leaves to the reader. The CLI's is
// git in the directory --repo names; nil when there is none, and then
// where the code under such a comment is now is unknown.
type Revisions interface {
	// Diff returns the unified diff of path from commit from to commit
	// to, with no context lines (git diff -U0 FROM TO -- PATH); an error
	// when the repository cannot tell (a commit it does not have).
	Diff(from, to, path string) ([]byte, error)
}

// lineMoves are the hunks of a -U0 diff, old side first: what moves a
// line of the old file to the new one.
type lineMoves []lineMove

type lineMove struct{ oldStart, oldCount, newCount int }

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@`)

// parseLineMoves reads the hunk headers of a diff of one file.
func parseLineMoves(diff []byte) lineMoves {
	var out lineMoves
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := hunkHeader.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		count := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		start, _ := strconv.Atoi(m[1])
		out = append(out, lineMove{oldStart: start, oldCount: count(m[2]), newCount: count(m[3])})
	}
	return out
}

// mapLine is the line of the new file that line n of the old one is; false
// when a hunk changed or removed it.
func (ms lineMoves) mapLine(n int) (int, bool) {
	shift := 0
	for _, h := range ms {
		if h.oldCount == 0 { // lines inserted after oldStart
			if n <= h.oldStart {
				break
			}
			shift += h.newCount
			continue
		}
		if n < h.oldStart {
			break
		}
		if n < h.oldStart+h.oldCount {
			return 0, false
		}
		shift += h.newCount - h.oldCount
	}
	return n + shift, true
}

// sameCommit reports whether two names of commits name one: equal, or one
// a prefix of the other (a short SHA given for --head).
func sameCommit(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if len(a) < 7 || len(b) < 7 {
		return a == b
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}
