package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSARIFRuleMetadata reads the rules `check --format sarif` writes as a
// SARIF viewer does: each code of the table has its id, a Pascal-case
// name, the table's sentence as short description, a longer full one,
// and a help URI whose fragment is a heading of the README that holds the
// codes table (GitHub's anchor for it).
func TestSARIFRuleMetadata(t *testing.T) {
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string `json:"id"`
						Name             string `json:"name"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						FullDescription struct {
							Text string `json:"text"`
						} `json:"fullDescription"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	data, _ := json.Marshal(runCheckFormat(t, "sarif", []string{filepath.Join("..", "..", "examples", "auth.review.json")}))
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	pascal := regexp.MustCompile(`^[A-Z][a-z]+([A-Z][a-z]+)*$`)
	rs := log.Runs[0].Tool.Driver.Rules
	table := rules()
	if len(rs) != len(table) {
		t.Fatalf("got %d rules, want %d, one per code check reports", len(rs), len(table))
	}
	for i, r := range rs {
		c := table[i]
		if r.ID != c.Code || r.ShortDescription.Text != c.Description {
			t.Errorf("rule %d: got id %q, short description %q; want %q, %q", i, r.ID, r.ShortDescription.Text, c.Code, c.Description)
		}
		if !pascal.MatchString(r.Name) || strings.EqualFold(r.Name, r.ID) {
			t.Errorf("rule %s: got name %q, want a name in Pascal case, other than the id", c.Code, r.Name)
		}
		if strings.Contains(c.Code, "-") && !strings.EqualFold(r.Name, strings.ReplaceAll(c.Code, "-", "")) {
			t.Errorf("rule %s: got name %q, want the code's words in Pascal case", c.Code, r.Name)
		}
		if !strings.HasPrefix(r.FullDescription.Text, c.Description+" ") || !strings.HasSuffix(r.FullDescription.Text, ".") {
			t.Errorf("rule %s: got full description %q, want the short one and more sentences", c.Code, r.FullDescription.Text)
		}
		if c.FixAll != strings.Contains(r.FullDescription.Text, "applied by `lreview-lsp fix`") {
			t.Errorf("rule %s: got full description %q, want it to say whether fix applies its fix (fixAll %v)", c.Code, r.FullDescription.Text, c.FixAll)
		}
		base, fragment, ok := strings.Cut(r.HelpURI, "#")
		if !ok || base != "https://github.com/leanreview/lreview-lsp" || !hasHeadingAnchor(string(readme), fragment) {
			t.Errorf("rule %s: got help URI %q, want the repository's README at a heading's anchor", c.Code, r.HelpURI)
		}
	}
	if !strings.Contains(string(readme), "### Diagnostic codes\n\nSARIF output (`check --format sarif`) links each rule to this table.\n\n"+readmeCodesHeader) {
		t.Errorf("README.md: want the codes table right under the heading the help URI names")
	}
}

const readmeCodesHeader = "| code | severity | fix | fixAll | meaning |\n"

// hasHeadingAnchor reports whether a Markdown heading of doc gets anchor
// as GitHub spells it: lower case, spaces as hyphens, punctuation dropped.
func hasHeadingAnchor(doc, anchor string) bool {
	for _, line := range strings.Split(doc, "\n") {
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		if b.String() == anchor {
			return true
		}
	}
	return false
}
