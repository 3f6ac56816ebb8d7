package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The change and the review the bench measures: the change edits Go files
// where their lines repeat most (`}`, `if err != nil {`, `return err`),
// and the review's comments are, most of them, on those lines.

// repeated reports whether a line is one of the lines a Go file repeats
// most: a comment on it is the one a search near its old place gets wrong.
func repeated(line string) bool {
	switch strings.TrimSpace(line) {
	case "}", "if err != nil {", "return err":
		return true
	}
	return false
}

// git runs git in dir with a fixed identity, so that a commit needs no
// configuration of the machine's.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=trackbench", "-c", "user.email=trackbench@invalid", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		return nil, fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, stderr)
	}
	return out, nil
}

// commitAll makes dir a repository if it is not one and commits all.
func commitAll(dir, msg string) error {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if _, err := git(dir, "init", "-q", "-b", "main"); err != nil {
			return err
		}
	}
	if _, err := git(dir, "add", "-A"); err != nil {
		return err
	}
	_, err := git(dir, "commit", "-q", "--no-verify", "-m", msg)
	return err
}

// candidate is a Go file and how many `return err` lines it has.
type candidate struct {
	rel   string
	count int
}

// pickFiles lists the n Go files of root (outside testdata, LF line
// ends, valid UTF-8 lines only) with the most `return err` lines.
func pickFiles(root string, n int) ([]string, error) {
	var cands []candidate
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, '\r') >= 0 || len(data) == 0 || data[len(data)-1] != '\n' {
			return nil
		}
		k := bytes.Count(data, []byte("\treturn err\n"))
		if k >= 4 {
			rel, _ := filepath.Rel(root, path)
			cands = append(cands, candidate{filepath.ToSlash(rel), k})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return strings.Compare(a.rel, b.rel)
	})
	if len(cands) < n {
		return nil, fmt.Errorf("%s has %d Go files with four `return err` lines, want %d", root, len(cands), n)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = cands[i].rel
	}
	slices.Sort(out)
	return out, nil
}

// editLines is the change made to one file: at three `return err`
// lines followed by a `}` (the first, the middle and the last), a new
// `if err != nil { return err }` after the `}`, the `return err`
// wrapped, and a blank line after the `}` deleted (or added).
func editLines(lines []string) []string {
	var sites []int
	for i := 0; i+1 < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "return err" && strings.TrimSpace(lines[i+1]) == "}" {
			sites = append(sites, i)
		}
	}
	if len(sites) == 0 {
		return lines
	}
	picked := []int{sites[0], sites[len(sites)/2], sites[len(sites)-1]}
	picked = slices.Compact(picked)
	out := slices.Clone(lines)
	for k := len(picked) - 1; k >= 0; k-- {
		i := picked[k]
		brace := out[i+1]
		ind := brace[:len(brace)-len(strings.TrimLeft(brace, " \t"))]
		switch k % 3 {
		case 0:
			out = slices.Insert(out, i+2, ind+"if err != nil {", ind+"\treturn err", ind+"}")
		case 1:
			out[i] = strings.Replace(out[i], "return err", `return fmt.Errorf("trackbench: %w", err)`, 1)
		case 2:
			if i+2 < len(out) && out[i+2] == "" {
				out = slices.Delete(out, i+2, i+3)
			} else {
				out = slices.Insert(out, i+2, "")
			}
		}
	}
	return out
}

// splitLines is a text's lines, without terminators (the text ends in
// a line break or is empty).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// makeChange edits files in root (committed), returns the change's
// unified diff (8 lines of context: hunks full of `}`) and commits it,
// so that the working tree is the diff's RIGHT image.
func makeChange(root string, files []string) (string, error) {
	for _, rel := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(path, []byte(joinLines(editLines(splitLines(string(data))))), 0o644); err != nil {
			return "", err
		}
	}
	diff, err := git(root, "diff", "--no-color", "--no-ext-diff", "-U8")
	if err != nil {
		return "", err
	}
	return string(diff), commitAll(root, "the reviewed change")
}

// rightLine is a RIGHT line of a hunk.
type rightLine struct {
	n    int
	text string
	// hunk numbers the line's hunk; run counts the hunk's RIGHT lines
	// from this one on.
	hunk, run int
}

// rightLines parses a unified diff into each file's RIGHT lines, and the
// files in its order.
func rightLines(diff string) (map[string][]rightLine, []string) {
	out := map[string][]rightLine{}
	var order []string
	path, n, hunk := "", 0, 0
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ b/"):
			path = l[len("+++ b/"):]
			order = append(order, path)
		case strings.HasPrefix(l, "@@ "):
			f := strings.Fields(l)
			start, _, _ := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
			n, _ = strconv.Atoi(start)
			hunk++
		case path == "" || l == "" || strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "index "):
		case l[0] == ' ' || l[0] == '+':
			out[path] = append(out[path], rightLine{n: n, text: l[1:], hunk: hunk})
			n++
		}
	}
	for _, ls := range out {
		for i := len(ls) - 1; i >= 0; i-- {
			ls[i].run = 1
			if i+1 < len(ls) && ls[i+1].hunk == ls[i].hunk {
				ls[i].run = ls[i+1].run + 1
			}
		}
	}
	return out, order
}

// comment is a review comment: its RIGHT lines.
type comment struct {
	id, path   string
	start, end int
	text       string // its first line's text, for the report
}

// makeComments spreads count comments over the files of a change: 20 on
// each of the five files with the most RIGHT lines, the rest evenly;
// two in three on a repeated line, one in eight a range of 2–4 lines.
func makeComments(right map[string][]rightLine, files []string, count int, rng *rand.Rand) []comment {
	bySize := slices.Clone(files)
	slices.SortStableFunc(bySize, func(a, b string) int { return len(right[b]) - len(right[a]) })
	quota := map[string]int{}
	left := count
	for i, f := range bySize {
		if i < 5 && left >= 20 {
			quota[f], left = 20, left-20
		}
	}
	for i := 0; left > 0 && len(bySize) > 0; i++ {
		f := bySize[i%len(bySize)]
		if i >= 5 || len(bySize) <= 5 {
			quota[f]++
			left--
		}
	}
	var out []comment
	for _, f := range files {
		ls := right[f]
		var rep, other []int
		for i, l := range ls {
			if repeated(l.text) {
				rep = append(rep, i)
			} else {
				other = append(other, i)
			}
		}
		used := map[int]bool{}
		for k := 0; k < quota[f] && len(used) < len(ls); k++ {
			pool := other
			if (rng.IntN(3) < 2 && len(rep) > 0) || len(other) == 0 {
				pool = rep
			}
			i := pool[rng.IntN(len(pool))]
			if used[i] {
				k--
				continue
			}
			used[i] = true
			size := 1
			if rng.IntN(8) == 0 {
				size = min(2+rng.IntN(3), ls[i].run)
			}
			out = append(out, comment{path: f, start: ls[i].n, end: ls[i].n + size - 1, text: ls[i].text})
		}
	}
	slices.SortStableFunc(out, func(a, b comment) int {
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		return a.start - b.start
	})
	for i := range out {
		out[i].id = "c" + strconv.Itoa(i+1)
	}
	return out
}
