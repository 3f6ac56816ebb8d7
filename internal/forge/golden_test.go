package forge

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// update rewrites the expected sections of the golden archives:
// go test ./internal/forge -run Golden -update
var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// The SHAs every GitLab golden is exported with.
var goldenGitLab = Options{
	BaseSHA:  "5e6dffa282c5129aa67cd227a0429be21bfdaf80",
	StartSHA: "5e6dffa282c5129aa67cd227a0429be21bfdaf80",
	HeadSHA:  "f9ce7e16e56c162edbc9e480108041cf6b0291fe",
}

// An export archive (testdata/export-*.txtar) holds:
//
//	-- review.json --   the review exported
//	-- options --       optional: replies=drop, no-marker, event=E, commit=SHA
//	-- github.json --   expected: the GitHub review payload
//	-- gitlab.json --   expected: the GitLab discussions (goldenGitLab's SHAs)
//	-- gerrit.json --   expected: the Gerrit ReviewInput
//	-- gitea.json --    expected: the Forgejo/Gitea review
//	-- gitea-notes --   expected: the ranges Gitea's one line narrowed
//	-- bitbucket.json -- expected: the Bitbucket comment requests, replies threaded
//	-- azure.json --    expected: the Azure DevOps threads, replies threaded
//	-- notes --         expected: the comments left out and refused, one a line
//
// Every payload is also validated against the forge's request schema
// (GitHub's and GitLab's from the reference data, testschema.Forge; the
// others' in testdata/schemas).
func TestExportGolden(t *testing.T) {
	ghSchema := testschema.Forge(t, "github-create-review.request.schema.json")
	glSchema := testschema.Forge(t, "gitlab-create-discussion.request.schema.json")
	forEachArchive(t, "export-*.txtar", func(t *testing.T, ar *txtar.Archive) map[string][]byte {
		src := section(t, ar, "review.json")
		doc := exchange.Parse(src)
		plan, err := NewPlan(doc)
		if err != nil {
			t.Fatal(err)
		}
		gh, gl := goldenOptions(t, ar)
		review := plan.GitHub(gh)
		validate(t, ghSchema, "the GitHub review", review)
		discussions := plan.GitLab(gl)
		for i, d := range discussions {
			validate(t, glSchema, fmt.Sprintf("GitLab discussion %d", i), d)
		}
		out := map[string][]byte{
			"github.json": encode(t, review),
			"gitlab.json": encode(t, discussions),
			"notes":       planNotes(doc, plan),
		}
		for name, payload := range newForgePayloads(t, plan, gh) {
			out[name] = payload
		}
		return out
	})
}

// newForgePayloads exports plan to Gerrit, Gitea, Bitbucket and Azure
// DevOps with the golden's options (replies dropped or kept: quoted for
// Gerrit and Gitea, threaded for Bitbucket and Azure DevOps), validates
// each request against its schema subset and returns them by section.
func newForgePayloads(t *testing.T, plan *Plan, gh Options) map[string][]byte {
	t.Helper()
	opts := Options(gh)
	threaded := opts
	if opts.Replies == QuoteReplies {
		threaded.Replies = ThreadReplies
	}
	gerrit := plan.Gerrit(opts)
	validate(t, ownSchema(t, "gerrit-review-input.request.schema.json"), "the Gerrit ReviewInput", gerrit)
	gitea, narrowed := plan.Gitea(opts)
	validate(t, ownSchema(t, "gitea-create-review.request.schema.json"), "the Gitea review", gitea)
	bitbucket := plan.Bitbucket(threaded)
	for i, r := range bitbucket {
		validate(t, ownSchema(t, "bitbucket-create-comment.request.schema.json"), fmt.Sprintf("Bitbucket request %d", i), r)
	}
	azure := plan.Azure(threaded)
	for i, th := range azure {
		validate(t, ownSchema(t, "azure-create-thread.request.schema.json"), fmt.Sprintf("Azure DevOps thread %d", i), th)
	}
	var gnotes []string
	for _, n := range narrowed {
		gnotes = append(gnotes, n.Comment+": "+n.Why)
	}
	return map[string][]byte{
		"gerrit.json":    encode(t, gerrit),
		"gitea.json":     encode(t, gitea),
		"gitea-notes":    lines(gnotes),
		"bitbucket.json": encode(t, bitbucket),
		"azure.json":     encode(t, azure),
	}
}

// An import archive (testdata/import-*.txtar) holds, from GitHub:
//
//	-- comments.json --  gh api repos/O/R/pulls/N/comments --paginate
//	-- reviews.json --   optional: gh api …/reviews --paginate
//	-- pr.diff --        gh pr diff N
//
// or from GitLab:
//
//	-- discussions.json --  glab api projects/:id/merge_requests/N/discussions --paginate
//	-- head --              optional: the merge request's head commit (--head)
//	-- mr.diff --           glab mr diff N
//
// or from Gerrit (gerrit-comments.json, gerrit-messages.json), Gitea
// (gitea-comments.json, gitea-reviews.json), Bitbucket (activities.json)
// or Azure DevOps (threads.json), each listing validated against its
// response schema (testdata/schemas), with the diff as change.diff or
// pr.diff and an optional head; any archive may have
//
//	-- trust --          the accounts trusted to quote others, one a line
//
// and:
//
//	-- review.json --    expected: the review exchange document
//	-- notes --          expected: what the import says
//
// The document made must check without an error.
func TestImportGolden(t *testing.T) {
	forEachArchive(t, "import-*.txtar", func(t *testing.T, ar *txtar.Archive) map[string][]byte {
		im := importArchive(t, ar)
		an := anchor.CheckDocument(exchange.Parse(im.Data), nil)
		for _, d := range an.Diagnostics {
			if d.Severity == exchange.SeverityError && d.Code != exchange.CodeOrphanedAnchor {
				t.Errorf("the imported review has an error: %s [%s]", d.Message, d.Code)
			}
		}
		return map[string][]byte{
			"review.json": im.Data,
			"notes":       lines(im.Notes),
		}
	})
}

// importArchive imports an archive's GitHub or GitLab listing.
func importArchive(t *testing.T, ar *txtar.Archive) *Imported {
	t.Helper()
	var im *Imported
	var err error
	if data, ok := optionalSection(ar, "discussions.json"); ok {
		im, err = importGitLabArchive(t, ar, data)
	} else if _, ok := optionalSection(ar, "comments.json"); ok {
		im, err = importGitHubArchive(t, ar)
	} else {
		im, err = importNewForgeArchive(t, ar)
	}
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// importGitLabArchive imports an archive's GitLab discussions, data.
func importGitLabArchive(t *testing.T, ar *txtar.Archive, data []byte) (*Imported, error) {
	t.Helper()
	discussions, err := ReadGitLabDiscussions("discussions.json", data)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := optionalSection(ar, "head")
	return ImportGitLab(discussions, anchor.SplitDiffFile(section(t, ar, "mr.diff")), ImportOptions{Head: strings.TrimSpace(string(head)), Trust: archiveTrust(ar)})
}

// importGitHubArchive imports an archive's GitHub comments and reviews.
func importGitHubArchive(t *testing.T, ar *txtar.Archive) (*Imported, error) {
	t.Helper()
	comments, err := ReadGitHubComments("comments.json", section(t, ar, "comments.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reviews []GitHubReviewRecord
	if data, ok := optionalSection(ar, "reviews.json"); ok {
		if reviews, err = ReadGitHubReviews("reviews.json", data); err != nil {
			t.Fatal(err)
		}
	}
	return ImportGitHub(comments, reviews, anchor.SplitDiffFile(section(t, ar, "pr.diff")), ImportOptions{Trust: archiveTrust(ar)})
}

// forEachArchive runs produce on every archive matching pattern and
// compares what it returns with the archive's sections of those names,
// or with -update writes them.
func forEachArchive(t *testing.T, pattern string, produce func(*testing.T, *txtar.Archive) map[string][]byte) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden archives testdata/%s", pattern)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := produce(t, ar)
			if *update {
				writeSections(t, file, ar, got)
				return
			}
			for name, data := range got {
				want, ok := optionalSection(ar, name)
				if !ok {
					t.Errorf("no %s section (run with -update to write it); got:\n%s", name, data)
					continue
				}
				if !bytes.Equal(data, want) {
					t.Errorf("%s differs (run with -update to accept):\ngot:\n%s\nwant:\n%s", name, data, want)
				}
			}
		})
	}
}

func writeSections(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	for i := range ar.Files {
		if data, ok := got[ar.Files[i].Name]; ok {
			ar.Files[i].Data = data
			delete(got, ar.Files[i].Name)
		}
	}
	for _, name := range []string{"github.json", "gitlab.json", "gerrit.json", "gitea.json", "gitea-notes", "bitbucket.json", "azure.json", "review.json", "notes"} {
		if data, ok := got[name]; ok {
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
		}
	}
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	data, ok := optionalSection(ar, name)
	if !ok {
		t.Fatalf("the archive has no %s section", name)
	}
	return data
}

func optionalSection(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// goldenOptions reads the options section: words replies=drop,
// no-marker, event=E, commit=SHA.
func goldenOptions(t *testing.T, ar *txtar.Archive) (Options, Options) {
	gh, gl := Options{}, goldenGitLab
	data, _ := optionalSection(ar, "options")
	for _, w := range strings.Fields(string(data)) {
		key, value, _ := strings.Cut(w, "=")
		switch key {
		case "replies":
			if value == "drop" {
				gh.Replies, gl.Replies = DropReplies, DropReplies
			}
		case "no-marker":
			gh.NoMarker, gl.NoMarker = true, true
		case "event":
			gh.Event = value
		case "commit":
			gh.CommitID = value
		default:
			t.Fatalf("unknown option %q", w)
		}
	}
	return gh, gl
}

// encode writes v as the export command does: indented, no HTML escaping.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// planNotes lists the comments left out and refused, with their lines.
func planNotes(doc *exchange.Document, p *Plan) []byte {
	var out []string
	m := doc.Mapper()
	for _, l := range p.Left {
		line, _ := m.LineCol(l.Offset)
		out = append(out, fmt.Sprintf("%d: left out %s: %s", line, l.Comment, l.Why))
	}
	for _, pr := range p.Problems {
		line, col := m.LineCol(pr.Offset)
		out = append(out, fmt.Sprintf("%d:%d: refused %s: %s [%s]; fix: %s", line, col, pr.Comment, pr.Message, pr.Code, pr.Hint))
	}
	return lines(out)
}

func lines(ls []string) []byte {
	if len(ls) == 0 {
		return nil
	}
	return []byte(strings.Join(ls, "\n") + "\n")
}

// archiveTrust reads the optional trust section: the accounts trusted to
// quote others (ImportOptions.Trust), one a line.
func archiveTrust(ar *txtar.Archive) []string {
	data, _ := optionalSection(ar, "trust")
	return strings.Fields(string(data))
}

// importNewForgeArchive imports an archive's Gerrit, Gitea, Bitbucket or
// Azure DevOps listing, after validating it against the forge's response
// schema.
func importNewForgeArchive(t *testing.T, ar *txtar.Archive) (*Imported, error) {
	t.Helper()
	head, _ := optionalSection(ar, "head")
	opts := ImportOptions{Head: strings.TrimSpace(string(head)), Trust: archiveTrust(ar)}
	diff, ok := optionalSection(ar, "change.diff")
	if !ok {
		diff = section(t, ar, "pr.diff")
	}
	patch := anchor.SplitDiffFile(diff)
	listed := func(name, schema string) []byte {
		data := section(t, ar, name)
		dec := json.NewDecoder(bytes.NewReader(withoutXSSI(data)))
		for dec.More() {
			var page json.RawMessage
			if err := dec.Decode(&page); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			validateJSON(t, ownSchema(t, schema), name, page)
		}
		return data
	}
	switch {
	case hasSection(ar, "gerrit-comments.json"):
		comments, err := ReadGerritComments("gerrit-comments.json", listed("gerrit-comments.json", "gerrit-comments.response.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		messages, err := ReadGerritMessages("gerrit-messages.json", listed("gerrit-messages.json", "gerrit-messages.response.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		return ImportGerrit(comments, messages, patch, opts)
	case hasSection(ar, "gitea-comments.json"):
		comments, err := ReadGiteaComments("gitea-comments.json", listed("gitea-comments.json", "gitea-review-comment.response.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		reviews, err := ReadGiteaReviews("gitea-reviews.json", listed("gitea-reviews.json", "gitea-review.response.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		return ImportGitea(comments, reviews, patch, opts)
	case hasSection(ar, "activities.json"):
		activities, err := ReadBitbucketActivities("activities.json", listed("activities.json", "bitbucket-activities.response.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		return ImportBitbucket(activities, patch, opts)
	}
	threads, err := ReadAzureThreads("threads.json", listed("threads.json", "azure-threads.response.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return ImportAzure(threads, patch, opts)
}

func hasSection(ar *txtar.Archive, name string) bool {
	_, ok := optionalSection(ar, name)
	return ok
}
