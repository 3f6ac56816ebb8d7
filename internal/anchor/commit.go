package anchor

import "bytes"

// Commit is one commit as git prints it with its diff: its title, the
// rest of its message, and the diff alone.
type Commit struct {
	Title string
	// Message is the commit message after the title.
	Message string
	// Diff is the unified diff, without what git prints around it.
	Diff []byte
}

// ReadCommit reads data as one commit that git printed with its diff:
// the email of `git format-patch` (the diff inline or attached), or the
// output of `git show` or `git log -p` for one commit. ok is false when
// data is neither (a plain diff, or no diff at all); err says why data,
// which is one of them, cannot be taken (several commits, say).
func ReadCommit(data []byte) (c Commit, ok bool, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if c, ok, err = readPatchMail(data); ok {
		return c, ok, err
	}
	return readGitShow(data)
}

// PlainDiff returns the diff data holds: data itself, or, when data is a
// commit git printed with its diff (ReadCommit), its diff.
func PlainDiff(data []byte) ([]byte, error) {
	c, isCommit, err := ReadCommit(data)
	if err != nil || !isCommit {
		return data, err
	}
	return c.Diff, nil
}

// diffFrom returns b from its first line that starts a diff ("diff " or
// "--- "), or nil when none does.
func diffFrom(b []byte) []byte {
	for d := b; len(d) > 0; {
		line, rest := cutLine(d)
		if bytes.HasPrefix(line, []byte("diff ")) || bytes.HasPrefix(line, []byte("--- ")) {
			return d
		}
		d = rest
	}
	return nil
}

// cutLine returns b's first line, without its "\n", and what follows.
func cutLine(b []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(b, []byte("\n"))
	return line, rest
}
