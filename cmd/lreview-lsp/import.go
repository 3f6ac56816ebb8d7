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

// importListingFlags are every forge's listing flags, in the order of the
// forges' table.
func importListingFlags() []string {
	var out []string
	for _, f := range forge.Forges() {
		for _, l := range f.Listings {
			if !slices.Contains(out, l.Flag) {
				out = append(out, l.Flag)
			}
		}
	}
	return out
}

// listingHelp is a listing flag's help: what each forge taking it lists
// there.
func listingHelp(flag string) string {
	var parts []string
	for _, f := range forge.Forges() {
		for _, l := range f.Listings {
			if l.Flag == flag {
				parts = append(parts, f.Title+": "+l.Help)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// importFlags are the import's flags; which forge takes which is
// checked once they are parsed (importArgsError).
type importFlags struct {
	from, head, patch, out, trust, repo string
	listing                             map[string]*string
	set                                 map[string]bool
	forge                               forge.Forge
}

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("import", flag.ContinueOnError)
	fset.SetOutput(stderr)
	f := importFlags{listing: map[string]*string{}}
	fset.StringVar(&f.from, "from", "", "the forge: "+forgeList(" or "))
	for _, name := range importListingFlags() {
		f.listing[name] = fset.String(name, "", listingHelp(name))
	}
	var heads, repos []string
	for _, fg := range forge.Forges() {
		if fg.Head != "" {
			heads = append(heads, fg.Title+": "+fg.Head)
		}
		if fg.Repo {
			repos = append(repos, fg.Title)
		}
	}
	fset.StringVar(&f.head, "head", "", strings.Join(heads, "; "))
	fset.StringVar(&f.repo, "repo", "", orList(repos)+": a clone of the repository, to map the lines of comments made on an earlier commit to the head (git diff); without it, whether they are stale is read from the line the forge quotes, or unknown")
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
	im, status := importFrom(&f, &importInputs{stdin: stdin, stderr: stderr, flags: importFileFlags(f.forge)})
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
	fmt.Fprintf(stderr, "lreview-lsp import: %s\n%s\n", msg, importUsage())
	return 2
}

// importFileFlags names the flags that take files for a forge, for the
// message on two of them being standard input.
func importFileFlags(fg forge.Forge) string {
	var names []string
	for _, l := range fg.Listings {
		names = append(names, "--"+l.Flag)
	}
	names = append(names, "--patch")
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// importArgsError says what is wrong with the flags, "" when nothing is:
// each forge has its own listing flags, and a flag of another forge's is
// refused rather than ignored.
func importArgsError(f *importFlags) string {
	if f.from == "" {
		return "--from is required: " + forgeList(" or ")
	}
	fg, ok := forge.ForgeNamed(f.from)
	if !ok {
		return fmt.Sprintf("--from must be %s, got %q", forgeList(" or "), f.from)
	}
	f.forge = fg
	for _, name := range importListingFlags() {
		if f.set[name] && !slices.ContainsFunc(fg.Listings, func(l forge.Listing) bool { return l.Flag == name }) {
			return fmt.Sprintf("--%s is not for --from %s, whose threads come with --%s", name, f.from, fg.Listings[0].Flag)
		}
	}
	if f.set["head"] && fg.Head == "" {
		return fmt.Sprintf("--head is not for --from %s: %s", f.from, fg.HeadlessWhy)
	}
	if f.set["repo"] && !fg.Repo {
		return fmt.Sprintf("--repo is not for --from %s: it places its comments on the head itself", f.from)
	}
	if f.set["repo"] && f.head == "" {
		return "--repo maps comments to the head --head names: give --head too"
	}
	if *f.listing[fg.Listings[0].Flag] == "" {
		return "--" + fg.Listings[0].Flag + " is required"
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

// importFrom reads the forge's listings and the patch and makes the
// review; nil and an exit status when it cannot.
func importFrom(f *importFlags, in *importInputs) (*forge.Imported, int) {
	listings := map[string]forge.Input{}
	var patch []byte
	for k, l := range f.forge.Listings {
		name := *f.listing[l.Flag]
		if name == "" {
			continue
		}
		d, ok := in.read(name)
		if !ok {
			return nil, 2
		}
		listings[l.Flag] = forge.Input{Name: displayName(name), Data: d}
		if k == 0 {
			// The patch is read after the first listing: a second - is
			// refused in the order the flags are named.
			if patch, ok = in.read(f.patch); !ok {
				return nil, 2
			}
		}
	}
	opts := forge.ImportOptions{Head: f.head}
	if f.repo != "" {
		opts.Revisions = gitRepo{f.repo}
	}
	for _, t := range strings.Split(f.trust, ",") {
		if t = strings.TrimSpace(t); t != "" {
			opts.Trust = append(opts.Trust, t)
		}
	}
	im, err := f.forge.Import(listings, anchor.SplitDiffFile(patch), opts)
	if err != nil {
		var pe *forge.PatchError
		if errors.As(err, &pe) {
			fmt.Fprintf(in.stderr, "lreview-lsp import: %s: %v\n", displayName(f.patch), pe.Err)
		} else {
			fmt.Fprintf(in.stderr, "lreview-lsp import: %v\n", err)
		}
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
