package forge

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Imported is a review exchange document made from a pull request or a
// merge request, and what the import has to say about it.
type Imported struct {
	// Data is the document, written canonically (exchange.Format).
	Data []byte
	// Notes are one line each: comments left out (file-level ones),
	// imported orphaned, stale or dismissed, or placed otherwise than on
	// the forge.
	Notes []string
	// Comments counts the comments the document holds.
	Comments int
}

// ImportOptions are what every import takes besides the listings.
type ImportOptions struct {
	// Head is the revision the patch is of: a commit (GitLab, Gitea) or a
	// patch set number or commit (Gerrit). A thread placed on another
	// revision is imported stale; "" takes every place as current.
	Head string
	// Trust names the forge accounts that post exports (their logins,
	// usernames or unique names): in their posts, the replies an export
	// quoted come back as replies by the authors the quotes name. In
	// anyone else's post a quote naming someone else stays text.
	Trust []string
	// Revisions maps a comment Forgejo or Gitea made on an earlier commit
	// to the head through the repository; nil when there is none.
	Revisions Revisions
}

// importer is what every import shares: the patch's index to place
// comments on, the document being built, the ids taken so far, the
// accounts trusted to quote others, and the notes.
type importer struct {
	ix    *anchor.Index
	patch *exchange.Patch // the patch ix indexes, for its lines' text
	rv    exReview
	im    *Imported
	used  map[string]bool
	trust map[string]bool
	// shown holds the accounts whose display name a note has shown.
	shown map[string]bool
}

// account is a post's author as a forge lists it: id from its stable
// account fields (a username, login, unique name, slug or number), which
// --trust and attribution match; display the name the forge shows, which
// its owner may set to anything ("hduran", "poster") and is therefore
// only shown, in a note.
type account struct{ id, display string }

// author is the identity a post is attributed to. An account known only
// by its number is named by it, and the name the forge shows for it is
// said once in a note.
func (in *importer) author(forgeName string, a account) string {
	if a.display != "" && a.display != a.id && !in.shown[a.id] {
		in.shown[a.id] = true
		who := a.id
		if who == "" {
			who = "an account with no username or number"
		}
		in.notef("%s has no username on %s: its posts are imported as %s's; the name %s shows for it, %q, is not an identity (--trust and attribution never match it)",
			who, forgeName, cmp.Or(a.id, "no one's"), forgeName, a.display)
	}
	return a.id
}

// newImporter starts an import on patch, split into lines. differ names
// the command whose output the patch should be, for the error on a patch
// with no file diff.
func newImporter(patch []string, differ string, opts ImportOptions) (*importer, error) {
	ix, pdoc, err := patchIndex(patch, differ)
	if err != nil {
		return nil, err
	}
	in := &importer{
		ix:    ix,
		patch: &pdoc.Review.Patch,
		rv:    exReview{Version: 1, Patch: patch, Comments: []*exComment{}},
		im:    &Imported{},
		used:  map[string]bool{},
		shown: map[string]bool{},
	}
	in.trust = make(map[string]bool, len(opts.Trust))
	for _, t := range opts.Trust {
		in.trust[t] = true
	}
	if n, first := invalidUTF8(patch); n > 0 {
		// JSON strings hold Unicode text only: such bytes cannot travel.
		are, their := "are", "their"
		if n == 1 {
			are, their = "is", "its"
		}
		in.notef("the patch has %s that %s not UTF-8 (the first is line %d): in the review, %s invalid bytes are U+FFFD",
			anchor.Plural(n, "line", "lines"), are, first+1, their)
	}
	return in, nil
}

func (in *importer) notef(format string, args ...any) {
	in.im.Notes = append(in.im.Notes, fmt.Sprintf(format, args...))
}

// comment starts the comment a thread becomes from its first post's text:
// the body, the replies quoted under it and the id come back from the
// markers an export wrote (splitBody); a thread without a marker, or
// whose marker names an id an earlier comment took, is fallbackID. name
// is the post as the forge numbers it, for the notes.
func (in *importer) comment(name, fallbackID, text, author, at string) *exComment {
	body, quoted, id, marked := splitBody(text)
	if len(quoted) > 0 && !in.mayQuote(author, quoted) {
		// Words the forge does not show their author writing: the
		// block stays what it is, text the post's author wrote.
		names := quotedAuthors(quoted)
		body, quoted = unmarked(text), nil
		in.notef("%s: its body quotes replies by %s, but %s posted it: kept as text in its body (import --trust %s reads the quotes of an account that posts exports as replies)",
			name, names, posterName(author), cmp.Or(author, "LOGIN"))
	}
	c := &exComment{ID: fallbackID, Author: author, Body: body, State: exchange.StateActive, At: at}
	if marked && id != "" && !in.used[id] {
		c.ID = id
	} else if marked && id != "" {
		in.notef("%s: its marker names %s, which an earlier comment took: imported as %s", name, id, c.ID)
	}
	in.used[c.ID] = true
	for _, q := range quoted {
		c.Replies = append(c.Replies, exReply{Author: q.author, Body: q.body, At: q.at})
	}
	return c
}

// mayQuote reports whether a post by author may carry quoted as
// replies: when every quote names its author, or author is an account
// the import trusts to post exports. A quote that names no one is not
// its author's by name either: it would pass the post's words off as no
// one's.
func (in *importer) mayQuote(author string, quoted []reply) bool {
	if in.trust[author] && author != "" {
		return true
	}
	for _, q := range quoted {
		if q.author != author {
			return false
		}
	}
	return true
}

// reply is a reply post as the import keeps it: a reply an export posted
// (replyBody) by an account that may quote its author comes back as that
// author's; any other post is its forge author's words, as written. name
// is the post as the forge numbers it, for the notes.
func (in *importer) reply(name, author, at, text string) exReply {
	if q, ok := splitReplyBody(text); ok {
		if in.mayQuote(author, []reply{q}) {
			return exReply{Author: q.author, Body: q.body, At: q.at}
		}
		in.notef("%s: quotes a reply by %s, but %s posted it: kept as the poster's reply, its text as written (import --trust %s reads the quotes of an account that posts exports)",
			name, cmp.Or(q.author, "no one by name"), posterName(author), cmp.Or(author, "LOGIN"))
	}
	return exReply{Author: author, Body: text, At: at}
}

// posterName names a post's author for the notes.
func posterName(author string) string {
	if author == "" {
		return "a deleted account"
	}
	return author
}

// quotedAuthors names the authors quotes name, once each.
func quotedAuthors(rs []reply) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		name := cmp.Or(r.author, "no one by name")
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// finish resolves every comment with the engine: an active one that does
// not resolve is orphaned, one that does gets its snippet. It then writes
// the document canonically.
func (in *importer) finish() (*Imported, error) {
	rv, im := &in.rv, in.im
	doc, err := rv.document()
	if err != nil {
		return nil, err
	}
	an := anchor.CheckDocument(doc, nil)
	for i, c := range rv.Comments {
		r := an.Anchors.Resolutions[i]
		switch {
		case c.State == exchange.StateStale && !r.Resolved:
			// A stale comment keeps lines the patch holds (check says
			// orphaned-anchor otherwise): an earlier revision's lines that
			// are gone, or a place the forge took outside the diff (Gitea
			// answers 200 for any line).
			c.State = exchange.StateOrphaned
			in.notef("%s: %s of %q is not in the patch either: imported orphaned, not stale",
				c.ID, anchor.LineSpan(sideOf(c.Side), c.StartLine, cmp.Or(c.EndLine, c.StartLine)), c.Path)
		case c.State != exchange.StateActive:
		case r.Resolved:
			c.Snippet = anchor.SnippetOf(&doc.Review.Patch, r.File, r.Lines())
		default:
			c.State = exchange.StateOrphaned
			in.notef("%s: %s of %q is not in the patch: imported orphaned",
				c.ID, anchor.LineSpan(sideOf(c.Side), c.StartLine, cmp.Or(c.EndLine, c.StartLine)), c.Path)
		}
	}
	if doc, err = rv.document(); err != nil {
		return nil, err
	}
	if im.Data, err = exchange.Format(doc); err != nil {
		return nil, err
	}
	im.Comments = len(rv.Comments)
	return im, nil
}

// invalidUTF8 counts the lines that are not UTF-8, and gives the first.
func invalidUTF8(lines []string) (n, first int) {
	for i, l := range lines {
		if !utf8.ValidString(l) {
			if n == 0 {
				first = i
			}
			n++
		}
	}
	return n, first
}

// patchIndex indexes the patch alone, to place comments before the
// document is made. differ names the command the patch should come from.
func patchIndex(patch []string, differ string) (*anchor.Index, *exchange.Document, error) {
	rv := exReview{Version: 1, Patch: patch, Comments: []*exComment{}}
	doc, err := rv.document()
	if err != nil {
		return nil, nil, err
	}
	ix := anchor.BuildIndex(&doc.Review.Patch)
	if len(ix.Files) == 0 {
		return nil, nil, fmt.Errorf("the patch holds no file diff (expected the output of %s)", differ)
	}
	return ix, doc, nil
}

// lineText is the text of line n of side in the patch's file path, and
// whether the patch shows that line.
func (in *importer) lineText(path string, side anchor.Side, n int) (string, bool) {
	f := fileNamed(in.ix, path)
	h, i, ok := f.Find(side, n)
	if !ok {
		return "", false
	}
	return f.Content(in.patch, f.Hunks[h].PatchLine(i)), true
}

// narrowed returns the part of a range that starts on the other image at
// from and ends on side at end that lies in side's image: from the first
// line of that image after from's line, in the same hunk.
func narrowed(f *anchor.FileDiff, side, other anchor.Side, from, end int) (int, int) {
	if f == nil {
		return end, end
	}
	h1, i, ok1 := f.Find(other, from)
	h2, j, ok2 := f.Find(side, end)
	if !ok1 || !ok2 || h1 != h2 {
		return end, end
	}
	for ; i <= j; i++ {
		if n := f.Hunks[h1].Lines[i].Number(side); n > 0 {
			return n, end
		}
	}
	return end, end
}

func sideOf(s string) anchor.Side {
	side, _ := anchor.ParseSide(s)
	return side
}
