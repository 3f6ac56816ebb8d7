package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

const importUsage = `usage: lreview-lsp import --from github --comments COMMENTS.json [--reviews REVIEWS.json] --patch PR.diff [-o OUT]
       lreview-lsp import --from gitlab --discussions DISCUSSIONS.json --patch MR.diff [--head SHA] [-o OUT]`

// importFlags are the import's flags; which forge takes which is
// checked once they are parsed (importArgsError).
type importFlags struct {
	from, comments, reviews, discussions, head, patch, out string
	set                                                    map[string]bool
}

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("import", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var f importFlags
	fset.StringVar(&f.from, "from", "", "the forge: github or gitlab")
	fset.StringVar(&f.comments, "comments", "", "GitHub: the output of gh api repos/OWNER/REPO/pulls/N/comments --paginate (- for standard input)")
	fset.StringVar(&f.reviews, "reviews", "", "GitHub, optional: the output of gh api repos/OWNER/REPO/pulls/N/reviews --paginate, for the summary")
	fset.StringVar(&f.discussions, "discussions", "", "GitLab: the output of glab api projects/:id/merge_requests/N/discussions --paginate (- for standard input)")
	fset.StringVar(&f.head, "head", "", "GitLab, optional: the merge request's head commit; a thread placed on another version is imported stale")
	fset.StringVar(&f.patch, "patch", "", "the output of gh pr diff N (GitHub) or glab mr diff N --raw (GitLab)")
	fset.StringVar(&f.out, "o", "", "write the review to OUT (created, or replaced when it exists) instead of standard output")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	f.set = map[string]bool{}
	fset.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fset.NArg() > 0 {
		return importUsageError(stderr, fmt.Sprintf("unexpected argument %q", fset.Arg(0)))
	}
	if msg := importArgsError(&f); msg != "" {
		return importUsageError(stderr, msg)
	}
	// The file replaced is read first, so that a change made to it while
	// the import runs is not overwritten.
	var orig *filewrite.Original
	if f.out != "" {
		var err error
		if orig, err = filewrite.Read(f.out); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "lreview-lsp import: %v\n", err)
			return 2
		}
	}
	in := &importInputs{stdin: stdin, stderr: stderr}
	var im *forge.Imported
	var status int
	if f.from == "gitlab" {
		in.flags = "--discussions and --patch"
		im, status = importGitLab(&f, in)
	} else {
		in.flags = "--comments, --reviews and --patch"
		im, status = importGitHub(&f, in)
	}
	if im == nil {
		return status
	}
	for _, n := range im.Notes {
		fmt.Fprintf(stderr, "lreview-lsp import: %s\n", n)
	}
	if f.out == "" {
		if _, err := stdout.Write(im.Data); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return 2
		}
		return 0
	}
	return writeImported(f.out, orig, im, stderr)
}

func importUsageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "lreview-lsp import: %s\n%s\n", msg, importUsage)
	return 2
}

// importArgsError says what is wrong with the flags, "" when nothing is:
// each forge has its own listing flags, and a flag of the other forge's
// is refused rather than ignored.
func importArgsError(f *importFlags) string {
	switch f.from {
	case "":
		return "--from is required: github or gitlab"
	case "github":
		for _, name := range []string{"discussions", "head"} {
			if f.set[name] {
				return fmt.Sprintf("--%s is GitLab's (--from gitlab); a pull request's threads come with --comments and --reviews", name)
			}
		}
		if f.comments == "" {
			return "--comments is required"
		}
	case "gitlab":
		for _, name := range []string{"comments", "reviews"} {
			if f.set[name] {
				return fmt.Sprintf("--%s is GitHub's (--from github); a merge request's threads come with --discussions", name)
			}
		}
		if f.discussions == "" {
			return "--discussions is required"
		}
	default:
		return fmt.Sprintf("--from must be github or gitlab, got %q", f.from)
	}
	if f.patch == "" {
		return "--patch is required"
	}
	return ""
}

// importInputs reads the import's input files, standard input once at
// most.
type importInputs struct {
	stdin     io.Reader
	stderr    io.Writer
	flags     string // the flags that take files, for the message
	stdinUsed bool
}

// read reads name, or standard input for -; false when it cannot (said
// on standard error).
func (in *importInputs) read(name string) ([]byte, bool) {
	if name == "-" && in.stdinUsed {
		fmt.Fprintf(in.stderr, "lreview-lsp import: only one of %s may be - (standard input)\n", in.flags)
		return nil, false
	}
	in.stdinUsed = in.stdinUsed || name == "-"
	data, err := readInput(name, in.stdin)
	if err != nil {
		fmt.Fprintf(in.stderr, "lreview-lsp: %v\n", err)
		return nil, false
	}
	return data, true
}

// importGitHub reads the three inputs and makes the review; nil and an
// exit status when it cannot.
func importGitHub(f *importFlags, in *importInputs) (*forge.Imported, int) {
	commentsData, ok := in.read(f.comments)
	if !ok {
		return nil, 2
	}
	patchData, ok := in.read(f.patch)
	if !ok {
		return nil, 2
	}
	comments, err := forge.ReadGitHubComments(displayName(f.comments), commentsData)
	if err != nil {
		fmt.Fprintf(in.stderr, "lreview-lsp import: %v\n", err)
		return nil, 1
	}
	var reviews []forge.GitHubReviewRecord
	if f.reviews != "" {
		data, ok := in.read(f.reviews)
		if !ok {
			return nil, 2
		}
		if reviews, err = forge.ReadGitHubReviews(displayName(f.reviews), data); err != nil {
			fmt.Fprintf(in.stderr, "lreview-lsp import: %v\n", err)
			return nil, 1
		}
	}
	im, err := forge.ImportGitHub(comments, reviews, anchor.SplitDiffFile(patchData))
	if err != nil {
		fmt.Fprintf(in.stderr, "lreview-lsp import: %s: %v\n", displayName(f.patch), err)
		return nil, 1
	}
	return im, 0
}

// importGitLab reads the discussions and the diff and makes the review;
// nil and an exit status when it cannot.
func importGitLab(f *importFlags, in *importInputs) (*forge.Imported, int) {
	discussionsData, ok := in.read(f.discussions)
	if !ok {
		return nil, 2
	}
	patchData, ok := in.read(f.patch)
	if !ok {
		return nil, 2
	}
	discussions, err := forge.ReadGitLabDiscussions(displayName(f.discussions), discussionsData)
	if err != nil {
		fmt.Fprintf(in.stderr, "lreview-lsp import: %v\n", err)
		return nil, 1
	}
	im, err := forge.ImportGitLab(discussions, anchor.SplitDiffFile(patchData), f.head)
	if err != nil {
		fmt.Fprintf(in.stderr, "lreview-lsp import: %s: %v\n", displayName(f.patch), err)
		return nil, 1
	}
	return im, 0
}

// writeImported writes the review to out: created when it did not exist,
// replaced when it did (orig, read before the import) and has not changed
// since.
func writeImported(out string, orig *filewrite.Original, im *forge.Imported, stderr io.Writer) int {
	var err error
	verb := "wrote"
	if orig == nil {
		err = filewrite.Create(out, im.Data)
	} else {
		verb = "replaced"
		err = orig.Replace(im.Data)
	}
	switch {
	case errors.Is(err, filewrite.ErrChanged):
		fmt.Fprintf(stderr, "lreview-lsp import: %s changed while the import ran; nothing written — run again\n", out)
		return 1
	case errors.Is(err, fs.ErrExist):
		fmt.Fprintf(stderr, "lreview-lsp import: %s appeared while the import ran; nothing written — run again\n", out)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "lreview-lsp import: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "lreview-lsp import: %s %s: %s\n", verb, out, anchor.Plural(im.Comments, "comment", "comments"))
	return 0
}
