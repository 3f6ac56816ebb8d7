package anchor

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// gitCommitLine starts each commit git show and git log print: the
// commit id, then perhaps its decorations ("(HEAD -> main)").
var gitCommitLine = regexp.MustCompile(`(?m)^commit [0-9a-f]{40}( .*)?\r?$`)

// readGitShow reads data as what `git show` or `git log -p` prints for
// one commit: "commit <id>", header lines (Author:, Date:, …), a blank
// line, the message indented by four spaces, then, after any diffstat,
// the diff. ok is false when data does not start so.
func readGitShow(data []byte) (c Commit, ok bool, err error) {
	// The literal first: a long first line (a binary file's) is not
	// searched by the expression.
	if first, _ := cutLine(data); !bytes.HasPrefix(first, []byte("commit ")) || !gitCommitLine.Match(first) {
		return Commit{}, false, nil
	}
	if n := len(gitCommitLine.FindAllIndex(data, -1)); n > 1 {
		return Commit{}, true, fmt.Errorf("the input holds %d commits (git log -p of several): give one (git show <commit>), or the diff of the range (git diff A..B)", n)
	}
	_, rest := cutLine(data)
	for len(rest) > 0 { // the header, up to its blank line
		line, next := cutLine(rest)
		rest = next
		if len(bytes.TrimRight(line, "\r")) == 0 {
			break
		}
	}
	var message []string
	for len(rest) > 0 {
		line, next := cutLine(rest)
		text := strings.TrimRight(string(line), "\r")
		if text != "" && !strings.HasPrefix(text, "    ") {
			break // the message ends where its indentation does
		}
		message = append(message, strings.TrimPrefix(text, "    "))
		rest = next
	}
	if c.Diff = diffFrom(rest); c.Diff == nil {
		return Commit{}, true, errors.New(`the commit holds no diff (git show --no-patch?): expected the diff ("diff --git" or "---"/"+++" file headers) after its message`)
	}
	title, body, _ := strings.Cut(strings.TrimSpace(strings.Join(message, "\n")), "\n")
	c.Title, c.Message = strings.TrimSpace(title), strings.TrimSpace(body)
	return c, true, nil
}
