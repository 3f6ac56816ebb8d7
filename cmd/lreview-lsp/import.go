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

const importUsage = "usage: lreview-lsp import --from github --comments COMMENTS.json [--reviews REVIEWS.json] --patch PR.diff [-o OUT]"

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("import", flag.ContinueOnError)
	fset.SetOutput(stderr)
	from := fset.String("from", "", "the forge: github")
	commentsName := fset.String("comments", "", "the output of gh api repos/OWNER/REPO/pulls/N/comments --paginate (- for standard input)")
	reviewsName := fset.String("reviews", "", "optional: the output of gh api repos/OWNER/REPO/pulls/N/reviews --paginate, for the summary")
	patchName := fset.String("patch", "", "the output of gh pr diff N")
	out := fset.String("o", "", "write the review to OUT (created, or replaced when it exists) instead of standard output")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "lreview-lsp import: %s\n%s\n", msg, importUsage)
		return 2
	}
	switch {
	case fset.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fset.Arg(0)))
	case *from == "":
		return usageErr("--from is required: github")
	case *from != "github":
		return usageErr(fmt.Sprintf("--from must be github, got %q", *from))
	case *commentsName == "":
		return usageErr("--comments is required")
	case *patchName == "":
		return usageErr("--patch is required")
	}
	// The file replaced is read first, so that a change made to it while
	// the import runs is not overwritten.
	var orig *filewrite.Original
	if *out != "" {
		var err error
		if orig, err = filewrite.Read(*out); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "lreview-lsp import: %v\n", err)
			return 2
		}
	}
	im, status := importGitHub(*commentsName, *reviewsName, *patchName, stdin, stderr)
	if im == nil {
		return status
	}
	for _, n := range im.Notes {
		fmt.Fprintf(stderr, "lreview-lsp import: %s\n", n)
	}
	if *out == "" {
		if _, err := stdout.Write(im.Data); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return 2
		}
		return 0
	}
	return writeImported(*out, orig, im, stderr)
}

// importGitHub reads the three inputs and makes the review; nil and an
// exit status when it cannot.
func importGitHub(commentsName, reviewsName, patchName string, stdin io.Reader, stderr io.Writer) (*forge.Imported, int) {
	stdinUsed := false
	read := func(name string) ([]byte, bool) {
		if name == "-" && stdinUsed {
			fmt.Fprintln(stderr, "lreview-lsp import: only one of --comments, --reviews and --patch may be - (standard input)")
			return nil, false
		}
		stdinUsed = stdinUsed || name == "-"
		data, err := readInput(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return nil, false
		}
		return data, true
	}
	commentsData, ok := read(commentsName)
	if !ok {
		return nil, 2
	}
	patchData, ok := read(patchName)
	if !ok {
		return nil, 2
	}
	comments, err := forge.ReadGitHubComments(displayName(commentsName), commentsData)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp import: %v\n", err)
		return nil, 1
	}
	var reviews []forge.GitHubReviewRecord
	if reviewsName != "" {
		data, ok := read(reviewsName)
		if !ok {
			return nil, 2
		}
		if reviews, err = forge.ReadGitHubReviews(displayName(reviewsName), data); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp import: %v\n", err)
			return nil, 1
		}
	}
	im, err := forge.ImportGitHub(comments, reviews, anchor.SplitDiffFile(patchData))
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp import: %s: %v\n", displayName(patchName), err)
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
