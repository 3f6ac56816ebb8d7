package anchor

import (
	"strconv"
	"strings"
	"time"
)

// File headers: names, status and flags of a file diff.
//
// They are read here, not by go-diff, which the index used until issue 35
// (with this reader as its fallback when it refused a file or panicked):
// on every case of the tests and the 289 files of the real diffs under
// ../shared/data/realdiff*, the two agreed, go-diff refused two files
// (`diff -ruN` output) that this reader had to take anyway, and indexing
// those diffs took 1.9× the time, 2.3× the memory and 2.9× the
// allocations with it (BenchmarkIndexRealDiffs, then and now). Each file
// diff is read on its own, so that one malformed file cannot hide the
// others, and from its header lines only: the walk has already read the
// hunk headers (as git apply does) and numbered the bodies by their
// counts.

// headers reads f's names, status and flags from its header lines.
func (b *builder) headers(f *fileBuild) {
	ext := b.ext[:0]
	var rawOld, rawNew string
	for _, k := range b.hdrs {
		switch {
		case f.minus >= 0 && k == f.minus:
			rawOld = fileHeaderName(b.text(k)[len("--- "):])
		case f.minus >= 0 && k == f.minus+1:
			rawNew = fileHeaderName(b.text(k)[len("+++ "):])
		default:
			ext = append(ext, b.text(k))
		}
	}
	b.ext = ext
	switch {
	case f.minus >= 0:
	case f.git >= 0:
		rawOld, rawNew, _ = splitGitArgs(gitArgs(b.text(f.git)))
	case f.binLine >= 0:
		rawOld, rawNew = binaryNames(b.text(f.binLine))
	}
	b.settle(f, rawOld, rawNew, ext)
	clear(b.ext) // do not keep line texts alive through the scratch
}

// settle sets f's names, status and flags from the names as written
// (prefixes included, "/dev/null" for an absent side) and the extended
// header lines.
func (b *builder) settle(f *fileBuild, rawOld, rawNew string, ext []string) {
	var renameFrom, renameTo, copyFrom, copyTo string
	var rename, renameT, cp, cpT, newFile, deleted, oldMode, newMode, binary bool
	for _, h := range ext {
		switch {
		case strings.HasPrefix(h, "rename from "):
			renameFrom, rename = unquoteName(h[len("rename from "):]), true
		case strings.HasPrefix(h, "rename to "):
			renameTo, renameT = unquoteName(h[len("rename to "):]), true
		case strings.HasPrefix(h, "copy from "):
			copyFrom, cp = unquoteName(h[len("copy from "):]), true
		case strings.HasPrefix(h, "copy to "):
			copyTo, cpT = unquoteName(h[len("copy to "):]), true
		case strings.HasPrefix(h, "new file mode "):
			newFile = true
		case strings.HasPrefix(h, "deleted file mode "):
			deleted = true
		case strings.HasPrefix(h, "old mode "):
			oldMode = true
		case strings.HasPrefix(h, "new mode "):
			newMode = true
		case h == "GIT binary patch", isBinaryFiles(h):
			binary = true
		}
	}
	if f.binLine >= 0 {
		binary = true
	}
	args := ""
	if f.git >= 0 {
		args = gitArgs(b.text(f.git))
	}
	po, pn := prefixes(args, rawOld, rawNew)
	fd := f.fd
	fd.OldName, fd.NewName = stripName(rawOld, po), stripName(rawNew, pn)
	switch {
	case rename && renameT:
		fd.Status, fd.OldName, fd.NewName = Renamed, renameFrom, renameTo
	case cp && cpT:
		fd.Status, fd.OldName, fd.NewName = Copied, copyFrom, copyTo
	case newFile:
		fd.Status, fd.OldName = NewFile, ""
	case deleted:
		fd.Status, fd.NewName = DeletedFile, ""
	case fd.OldName == "" && fd.NewName != "":
		fd.Status = NewFile
	case fd.NewName == "" && fd.OldName != "":
		fd.Status = DeletedFile
	default:
		fd.Status = Modified
	}
	if f.git < 0 {
		plainNames(fd, rawOld, rawNew)
		b.epochSide(f)
	}
	// Copies: the header lines are views of the text of the version that
	// built the index, which later versions share.
	fd.OldName, fd.NewName = strings.Clone(fd.OldName), strings.Clone(fd.NewName)
	fd.Written = [2]string{strings.Clone(fd.Written[0]), strings.Clone(fd.Written[1])}
	fd.Binary = binary
	fd.ModeOnly = oldMode && newMode && !binary && fd.Status == Modified && len(fd.Hunks) == 0
}

// plainNames settles the names of a plain diff's file (`diff -u x.orig x`,
// `diff -ruN a b`), whose "---"/"+++" lines name two copies of one file:
// when its old and new names differ only by a backup suffix or by one
// folder (the two trees compared), both become the repository path, the
// part they share. Written keeps the names as written, where they differ.
func plainNames(fd *FileDiff, rawOld, rawNew string) {
	if fd.Status == Modified {
		if p, ok := repositoryPath(fd.OldName, fd.NewName); ok {
			fd.OldName, fd.NewName = p, p
		}
	}
	for s, raw := range [2]string{rawOld, rawNew} {
		if raw != "" && raw != "/dev/null" && raw != fd.Name(Side(s)) {
			fd.Written[s] = raw
		}
	}
}

// epochSide marks a plain diff's file new or deleted when `diff -N` wrote
// its absent side: dated the epoch (in any time zone), where git writes
// /dev/null, with no line in any hunk.
func (b *builder) epochSide(f *fileBuild) {
	fd := f.fd
	if f.minus < 0 || fd.Status != Modified || fd.Binary || len(fd.Hunks) == 0 {
		return
	}
	for s := Left; s <= Right; s++ {
		if !isEpoch(b.text(f.minus + int(s))) {
			continue
		}
		for i := range fd.Hunks {
			if h := &fd.Hunks[i]; s == Left && h.OldCount != 0 || s == Right && h.NewCount != 0 {
				return
			}
		}
		if s == Left {
			fd.Status, fd.OldName = NewFile, ""
		} else {
			fd.Status, fd.NewName = DeletedFile, ""
		}
		return
	}
}

// isEpoch reports whether a "---"/"+++" line's timestamp (after its TAB)
// is the Unix epoch.
func isEpoch(header string) bool {
	_, stamp, ok := strings.Cut(header, "\t")
	if !ok {
		return false
	}
	t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700", strings.TrimSpace(stamp))
	return err == nil && t.Unix() == 0
}

// backupSuffixes are the suffixes of the old copy in `diff -u x.orig x`:
// patch's and quilt's .orig, Emacs's and Vim's ~.
var backupSuffixes = [...]string{".orig", "~"}

// repositoryPath returns the path two written names of one file share:
// new when old is new with a backup suffix; the segments after the only
// one that differs when they have as many segments and differ in one
// folder, not the last segment ("old/x" and "new/x", "/tmp/a/src/x" and
// "/tmp/b/src/x"); both at once ("a/x.orig" and "b/x"). ok is false for
// names that do not share a path so.
func repositoryPath(old, new string) (string, bool) {
	if old == "" || new == "" || old == new {
		return "", false
	}
	forms := []string{old}
	for _, suffix := range backupSuffixes {
		if o, ok := strings.CutSuffix(old, suffix); ok && o != "" && !strings.HasSuffix(o, "/") {
			forms = append(forms, o)
		}
	}
	for _, o := range forms {
		if o == new {
			return new, true
		}
		if p, ok := oneFolderApart(o, new); ok {
			return p, true
		}
	}
	return "", false
}

// oneFolderApart returns what follows the only segment in which a and b
// differ, when that segment is a folder and they have as many segments.
func oneFolderApart(a, b string) (string, bool) {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	if len(as) != len(bs) {
		return "", false
	}
	k := -1
	for i := range as {
		if as[i] != bs[i] {
			if k >= 0 {
				return "", false
			}
			k = i
		}
	}
	if k < 0 || k == len(as)-1 || as[k] == "" || bs[k] == "" {
		return "", false
	}
	return strings.Join(as[k+1:], "/"), true
}

// prefixPairs are the source/destination prefixes git writes: the
// default a/ b/, and the diff.mnemonicPrefix ones (index, work tree,
// commit, object; 1/ 2/ for --no-index).
var prefixPairs = [...][2]string{{"a/", "b/"}, {"i/", "w/"}, {"c/", "w/"}, {"c/", "i/"}, {"o/", "w/"}, {"1/", "2/"}}

// prefixes returns the prefixes to strip from the old and new names. The
// "diff --git" line decides when there is one, so that `git diff
// --no-prefix` output (where "a/x" may be a real directory) keeps its
// names; a plain diff strips them only when both names carry a pair.
func prefixes(gitArgs, rawOld, rawNew string) (string, string) {
	if gitArgs != "" {
		a := strings.TrimPrefix(gitArgs, `"`)
		for _, pp := range prefixPairs {
			if strings.HasPrefix(a, pp[0]) && (strings.Contains(gitArgs, " "+pp[1]) || strings.Contains(gitArgs, ` "`+pp[1])) {
				return pp[0], pp[1]
			}
		}
		if _, _, ok := splitGitArgs(gitArgs); ok {
			return "", ""
		}
		// A malformed "diff --git" line says nothing: ask the names.
	}
	if rawOld == "/dev/null" && rawNew == "/dev/null" {
		return "", ""
	}
	for _, pp := range prefixPairs {
		if (rawOld == "/dev/null" || strings.HasPrefix(rawOld, pp[0])) && (rawNew == "/dev/null" || strings.HasPrefix(rawNew, pp[1])) {
			return pp[0], pp[1]
		}
	}
	return "", ""
}

func stripName(raw, prefix string) string {
	if raw == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(raw, prefix)
}

// gitArgs returns what follows "diff --git ".
func gitArgs(t string) string {
	if len(t) <= len("diff --git ") {
		return ""
	}
	return t[len("diff --git "):]
}

// splitGitArgs splits the two names of a "diff --git" line. ok is false
// when the line is malformed; a well-formed line with unquoted names that
// contain spaces may be ambiguous, and then both names are "" (the names
// come from the other headers).
func splitGitArgs(args string) (a, b string, ok bool) {
	if len(args) < 3 {
		return "", "", false
	}
	if args[0] == '"' {
		a, rest, ok := readQuoted(args)
		if !ok || len(rest) < 2 || rest[0] != ' ' {
			return "", "", false
		}
		rest = rest[1:]
		if rest[0] == '"' {
			b, rest, ok := readQuoted(rest)
			if !ok || rest != "" {
				return "", "", false
			}
			return a, b, true
		}
		return a, rest, true
	}
	if args[len(args)-1] == '"' {
		i := strings.Index(args, ` "`)
		if i <= 0 {
			return "", "", false
		}
		b, rest, ok := readQuoted(args[i+1:])
		if !ok || rest != "" {
			return "", "", false
		}
		return args[:i], b, true
	}
	sp := strings.IndexByte(args, ' ')
	if sp <= 0 || sp == len(args)-1 {
		return "", "", false
	}
	if strings.IndexByte(args[sp+1:], ' ') < 0 {
		return args[:sp], args[sp+1:], true
	}
	// Spaces in the names. With prefixes, one " b/" settles it; the same
	// name on both sides (a new or unchanged-name file) splits in the middle.
	for _, pp := range prefixPairs {
		if strings.HasPrefix(args, pp[0]) {
			if k := strings.Index(args, " "+pp[1]); k > 0 && strings.Count(args, " "+pp[1]) == 1 {
				return args[:k], args[k+1:], true
			}
		}
	}
	if len(args)%2 == 1 {
		first, second := args[:len(args)/2], args[len(args)/2+1:]
		if args[len(args)/2] == ' ' && (first == second || len(first) > 2 && first[1] == '/' && first[2:] == second[2:]) {
			return first, second, true
		}
	}
	return "", "", true
}

// readQuoted reads a C-style quoted name (git quotes names with unusual
// bytes: "a/t\303\251st") at the start of s.
func readQuoted(s string) (name, rest string, ok bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return unquoteName(s[:i+1]), s[i+1:], true
		}
	}
	return "", "", false
}

// unquoteName undoes git's C-style quoting of a name, if it is quoted.
func unquoteName(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}

// fileHeaderName reads the name of a "--- "/"+++ " line: up to a tab
// (after which diff writes a timestamp), unquoted.
func fileHeaderName(rest string) string {
	rest, _, _ = strings.Cut(strings.TrimSpace(rest), "\t")
	return unquoteName(rest)
}

func isBinaryFiles(t string) bool {
	return strings.HasPrefix(t, "Binary files ") && strings.HasSuffix(t, " differ")
}

// binaryNames reads "Binary files X and Y differ".
func binaryNames(t string) (string, string) {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "Binary files "), " differ")
	x, y, ok := strings.Cut(t, " and ")
	if !ok {
		return "", ""
	}
	return unquoteName(x), unquoteName(y)
}

// isExtendedHeader reports whether t is one of git's extended header
// lines, which sit between "diff --git" and "---" (or stand alone for
// mode, rename, copy, empty-file and binary changes).
func isExtendedHeader(t string) bool {
	if t == "" {
		return false
	}
	switch t[0] {
	case 'o':
		return strings.HasPrefix(t, "old mode ")
	case 'n':
		return strings.HasPrefix(t, "new mode ") || strings.HasPrefix(t, "new file mode ")
	case 'd':
		return strings.HasPrefix(t, "deleted file mode ") || strings.HasPrefix(t, "dissimilarity index ")
	case 'r':
		return strings.HasPrefix(t, "rename from ") || strings.HasPrefix(t, "rename to ")
	case 'c':
		return strings.HasPrefix(t, "copy from ") || strings.HasPrefix(t, "copy to ")
	case 's':
		return strings.HasPrefix(t, "similarity index ")
	case 'i':
		return strings.HasPrefix(t, "index ")
	case 'B':
		return isBinaryFiles(t)
	case 'G':
		return t == "GIT binary patch"
	}
	return false
}

// isBinaryData reports whether t can be a line of a "GIT binary patch":
// "literal N", "delta N", a blank line, or base85 data (a length letter,
// then characters of git's base85 alphabet).
func isBinaryData(t string) bool {
	if t == "" || strings.HasPrefix(t, "literal ") || strings.HasPrefix(t, "delta ") {
		return true
	}
	if c := t[0]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
		return false
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte("!#$%&()*+-;<=>?@^_`{|}~", c) >= 0) {
			return false
		}
	}
	return true
}
