package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

const importUsage = `usage: lreview-lsp import --from github --comments COMMENTS.json [--reviews REVIEWS.json] --patch PR.diff [--trust LOGIN,…] [-o OUT]
       lreview-lsp import --from gitlab --discussions DISCUSSIONS.json --patch MR.diff [--head SHA] [--trust LOGIN,…] [-o OUT]
       lreview-lsp import --from gerrit --comments COMMENTS.json [--messages MESSAGES.json] --patch CHANGE.diff [--head PATCHSET] [--trust USER,…] [-o OUT]
       lreview-lsp import --from gitea --comments COMMENTS.json [--reviews REVIEWS.json] --patch PR.diff [--head SHA] [--trust LOGIN,…] [-o OUT]
       lreview-lsp import --from bitbucket --activities ACTIVITIES.json --patch PR.diff [--trust USER,…] [-o OUT]
       lreview-lsp import --from azure --threads THREADS.json --patch PR.diff [--trust NAME,…] [-o OUT]`

// importForge is what one forge's import takes: its listing flags, the
// first required, and whether it reads --head.
type importForge struct {
	listings []string
	head     bool
}

// importForges are the forges import reads, by --from.
var importForges = map[string]importForge{
	"github":    {listings: []string{"comments", "reviews"}},
	"gitlab":    {listings: []string{"discussions"}, head: true},
	"gerrit":    {listings: []string{"comments", "messages"}, head: true},
	"gitea":     {listings: []string{"comments", "reviews"}, head: true},
	"bitbucket": {listings: []string{"activities"}},
	"azure":     {listings: []string{"threads"}},
}

// importListingFlags are every forge's listing flags, in the order usage
// names them.
var importListingFlags = []string{"comments", "reviews", "discussions", "messages", "activities", "threads"}

// importFlags are the import's flags; which forge takes which is
// checked once they are parsed (importArgsError).
type importFlags struct {
	from, head, patch, out, trust string
	listing                       map[string]*string
	set                           map[string]bool
}

// forgeNames lists the forges import reads.
const forgeNames = "github, gitlab, gerrit, gitea, bitbucket or azure"

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("import", flag.ContinueOnError)
	fset.SetOutput(stderr)
	f := importFlags{listing: map[string]*string{}}
	fset.StringVar(&f.from, "from", "", "the forge: "+forgeNames)
	for name, help := range map[string]string{
		"comments":    "GitHub: gh api repos/OWNER/REPO/pulls/N/comments --paginate; Gerrit: GET /changes/ID/comments; Gitea: each review's GET …/pulls/N/reviews/ID/comments, concatenated (- for standard input)",
		"reviews":     "GitHub, Gitea, optional: the pull request's reviews (GET …/pulls/N/reviews), for the title and summary",
		"discussions": "GitLab: glab api projects/:id/merge_requests/N/discussions --paginate (- for standard input)",
		"messages":    "Gerrit, optional: GET /changes/ID/messages, for the title and summary",
		"activities":  "Bitbucket: the pages of GET …/pull-requests/N/activities, concatenated",
		"threads":     "Azure DevOps: GET …/pullRequests/N/threads",
	} {
		f.listing[name] = fset.String(name, "", help)
	}
	fset.StringVar(&f.head, "head", "", "GitLab, Gitea: the head commit; Gerrit: the current patch set (number or commit); a thread placed on another is imported stale")
	fset.StringVar(&f.patch, "patch", "", "the pull request's, merge request's or change's diff (gh pr diff N, glab mr diff N --raw, git diff BASE HEAD)")
	fset.StringVar(&f.trust, "trust", "", "the forge accounts that post exports, comma-separated: in their posts, quoted replies come back as replies by the authors they name")
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
	im, status := importFrom(&f, &importInputs{stdin: stdin, stderr: stderr, flags: importFileFlags(f.from)})
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

// importFileFlags names the flags that take files for a forge, for the
// message on two of them being standard input.
func importFileFlags(from string) string {
	var names []string
	for _, l := range importForges[from].listings {
		names = append(names, "--"+l)
	}
	names = append(names, "--patch")
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// importArgsError says what is wrong with the flags, "" when nothing is:
// each forge has its own listing flags, and a flag of another forge's is
// refused rather than ignored.
func importArgsError(f *importFlags) string {
	if f.from == "" {
		return "--from is required: " + forgeNames
	}
	fg, ok := importForges[f.from]
	if !ok {
		return fmt.Sprintf("--from must be %s, got %q", forgeNames, f.from)
	}
	for _, name := range importListingFlags {
		if f.set[name] && !slices.Contains(fg.listings, name) {
			return fmt.Sprintf("--%s is not for --from %s, whose threads come with --%s", name, f.from, fg.listings[0])
		}
	}
	if f.set["head"] && !fg.head {
		return fmt.Sprintf("--head is not for --from %s: %s", f.from, headlessWhy(f.from))
	}
	if *f.listing[fg.listings[0]] == "" {
		return "--" + fg.listings[0] + " is required"
	}
	if f.patch == "" {
		return "--patch is required"
	}
	return ""
}

// headlessWhy says why a forge's import takes no --head.
func headlessWhy(from string) string {
	switch from {
	case "github":
		return "GitHub says itself which comments are outdated (line null)"
	case "bitbucket":
		return "Bitbucket says itself which comments are outdated (orphaned anchors)"
	}
	return "Azure DevOps moves its threads to the latest iteration itself"
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

// importFrom reads the forge's listings and the patch and makes the
// review; nil and an exit status when it cannot.
func importFrom(f *importFlags, in *importInputs) (*forge.Imported, int) {
	fg := importForges[f.from]
	data := map[string][]byte{}
	for k, l := range fg.listings {
		name := *f.listing[l]
		if name == "" {
			continue
		}
		d, ok := in.read(name)
		if !ok {
			return nil, 2
		}
		data[l] = d
		if k == 0 {
			// The patch is read after the first listing, as before: a
			// second - is refused in the order the flags are named.
			p, ok := in.read(f.patch)
			if !ok {
				return nil, 2
			}
			data["patch"] = p
		}
	}
	opts := forge.ImportOptions{Head: f.head}
	for _, t := range strings.Split(f.trust, ",") {
		if t = strings.TrimSpace(t); t != "" {
			opts.Trust = append(opts.Trust, t)
		}
	}
	im, err := importListings(f, data, anchor.SplitDiffFile(data["patch"]), opts)
	if err != nil {
		var pe *patchError
		if errors.As(err, &pe) {
			fmt.Fprintf(in.stderr, "lreview-lsp import: %s: %v\n", displayName(f.patch), pe.err)
		} else {
			fmt.Fprintf(in.stderr, "lreview-lsp import: %v\n", err)
		}
		return nil, 1
	}
	return im, 0
}

// patchError is an import's error about the patch, named by its file.
type patchError struct{ err error }

func (e *patchError) Error() string { return e.err.Error() }

// importListings reads each listing with its forge's reader and imports.
func importListings(f *importFlags, data map[string][]byte, patch []string, opts forge.ImportOptions) (*forge.Imported, error) {
	name := func(l string) string { return displayName(*f.listing[l]) }
	var im *forge.Imported
	var err error
	switch f.from {
	case "github":
		im, err = importGitHub(name, data, patch, opts)
	case "gitlab":
		ds, rerr := forge.ReadGitLabDiscussions(name("discussions"), data["discussions"])
		if rerr != nil {
			return nil, rerr
		}
		im, err = forge.ImportGitLab(ds, patch, opts)
	case "gerrit":
		im, err = importGerrit(name, data, patch, opts)
	case "gitea":
		im, err = importGitea(name, data, patch, opts)
	case "bitbucket":
		as, rerr := forge.ReadBitbucketActivities(name("activities"), data["activities"])
		if rerr != nil {
			return nil, rerr
		}
		im, err = forge.ImportBitbucket(as, patch, opts)
	case "azure":
		ts, rerr := forge.ReadAzureThreads(name("threads"), data["threads"])
		if rerr != nil {
			return nil, rerr
		}
		im, err = forge.ImportAzure(ts, patch, opts)
	}
	if re, ok := err.(readErr); ok {
		return nil, re.error
	}
	if err != nil {
		return nil, &patchError{err}
	}
	return im, nil
}

// readErr marks a listing's read error, which names its file itself.
type readErr struct{ error }

func importGitHub(name func(string) string, data map[string][]byte, patch []string, opts forge.ImportOptions) (*forge.Imported, error) {
	comments, err := forge.ReadGitHubComments(name("comments"), data["comments"])
	if err != nil {
		return nil, readErr{err}
	}
	var reviews []forge.GitHubReviewRecord
	if d, ok := data["reviews"]; ok {
		if reviews, err = forge.ReadGitHubReviews(name("reviews"), d); err != nil {
			return nil, readErr{err}
		}
	}
	return forge.ImportGitHub(comments, reviews, patch, opts)
}

func importGerrit(name func(string) string, data map[string][]byte, patch []string, opts forge.ImportOptions) (*forge.Imported, error) {
	comments, err := forge.ReadGerritComments(name("comments"), data["comments"])
	if err != nil {
		return nil, readErr{err}
	}
	var messages []forge.GerritMessage
	if d, ok := data["messages"]; ok {
		if messages, err = forge.ReadGerritMessages(name("messages"), d); err != nil {
			return nil, readErr{err}
		}
	}
	return forge.ImportGerrit(comments, messages, patch, opts)
}

func importGitea(name func(string) string, data map[string][]byte, patch []string, opts forge.ImportOptions) (*forge.Imported, error) {
	comments, err := forge.ReadGiteaComments(name("comments"), data["comments"])
	if err != nil {
		return nil, readErr{err}
	}
	var reviews []forge.GiteaReviewRecord
	if d, ok := data["reviews"]; ok {
		if reviews, err = forge.ReadGiteaReviews(name("reviews"), d); err != nil {
			return nil, readErr{err}
		}
	}
	return forge.ImportGitea(comments, reviews, patch, opts)
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
