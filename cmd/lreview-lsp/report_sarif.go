package main

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// rules are the diagnostic codes `check` reports, from the one table
// (features.Codes): a rule per code, in the order of diagnostics.md.
// TestReportRulesCoverCodes checks that every code the checker reports over
// the golden corpus has its rule.
func rules() []exchange.CodeInfo {
	var rs []exchange.CodeInfo
	for _, c := range features.Codes() {
		if !c.EditorOnly {
			rs = append(rs, c)
		}
	}
	return rs
}

// The SARIF 2.1.0 objects the output uses (OASIS SARIF 2.1.0, §3).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations"`
		ColumnKind  string            `json:"columnKind"`
		Results     []sarifResult     `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string      `json:"id"`
		Name                 string      `json:"name"`
		ShortDescription     sarifText   `json:"shortDescription"`
		FullDescription      sarifText   `json:"fullDescription"`
		HelpURI              string      `json:"helpUri"`
		DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          sarifText       `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
		Properties       map[string]any  `json:"properties,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifText    `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	sarifFix struct {
		Description     sarifText             `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifact      `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion `json:"deletedRegion"`
		InsertedContent sarifText   `json:"insertedContent"`
	}
)

// sarifFormat is one SARIF 2.1.0 run over all the files: the rules are the
// diagnostic codes, each result a diagnostic with its location, related
// locations and the fixes that need no choice. Columns are 1-based UTF-16
// code units (columnKind utf16CodeUnits, SARIF's default, what GitHub code
// scanning reads).
type sarifFormat struct {
	results  []sarifResult
	failures []sarifNotification
}

func (*sarifFormat) file(name string, _ []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	artifact := sarifArtifact{URI: sarifURI(name)}
	region := func(r exchange.Range) *sarifRegion {
		start, end := m.Range(r.Start, r.End, exchange.UTF16)
		return &sarifRegion{StartLine: start.Line + 1, StartColumn: start.Character + 1, EndLine: end.Line + 1, EndColumn: end.Character + 1}
	}
	out := make([]sarifResult, 0, len(ds))
	for _, d := range ds {
		r := sarifResult{
			RuleID:    d.Code,
			Level:     sarifLevel(d.Severity),
			Message:   sarifText{Text: d.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact, Region: region(d.Range)}}},
		}
		for i, rel := range d.Related {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: sarifPhysical{ArtifactLocation: artifact, Region: region(rel.Range)},
				Message:          &sarifText{Text: rel.Message},
			})
		}
		for _, f := range d.Fixes {
			if !f.Safe {
				continue
			}
			change := sarifArtifactChange{ArtifactLocation: artifact}
			for _, e := range f.Edits {
				change.Replacements = append(change.Replacements, sarifReplacement{
					DeletedRegion:   *region(exchange.Range{Start: e.Start, End: e.End}),
					InsertedContent: sarifText{Text: e.NewText},
				})
			}
			r.Fixes = append(r.Fixes, sarifFix{Description: sarifText{Text: f.Title}, ArtifactChanges: []sarifArtifactChange{change}})
		}
		if d.Reason != "" {
			r.Properties = map[string]any{"reason": d.Reason}
		}
		out = append(out, r)
	}
	return out
}

func (f *sarifFormat) add(_ io.Writer, part any) error {
	f.results = append(f.results, part.([]sarifResult)...)
	return nil
}

func (f *sarifFormat) failed(_ io.Writer, name string, err error) error {
	f.failures = append(f.failures, sarifNotification{
		Level:     "error",
		Message:   sarifText{Text: err.Error()},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(name)}}}},
	})
	return nil
}

func (f *sarifFormat) finish(w io.Writer) error {
	driver := sarifDriver{Name: "lreview-lsp", Version: sarifVersion(version), InformationURI: "https://github.com/leanreview/lreview-lsp"}
	index := map[string]int{}
	addRule := func(c exchange.CodeInfo) {
		index[c.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(c))
	}
	for _, r := range rules() {
		addRule(r)
	}
	results := f.results
	if results == nil {
		results = []sarifResult{}
	}
	for i := range results {
		if _, ok := index[results[i].RuleID]; !ok {
			// A code newer than the table still gets a rule, as results
			// must point at one.
			addRule(exchange.CodeInfo{Code: results[i].RuleID, Severity: exchange.SeverityWarning, Description: "lreview diagnostic " + results[i].RuleID + "."})
		}
		results[i].RuleIndex = index[results[i].RuleID]
	}
	return writeJSON(w, sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:        sarifTool{Driver: driver},
			Invocations: []sarifInvocation{{ExecutionSuccessful: len(f.failures) == 0, Notifications: f.failures}},
			ColumnKind:  "utf16CodeUnits",
			Results:     results,
		}},
	})
}

// codesHelpURI is where a person reads about every code: the README's
// table of diagnostic codes.
const codesHelpURI = "https://github.com/leanreview/lreview-lsp#diagnostic-codes"

// sarifRuleOf describes code c as a SARIF rule (§3.49): its id, a
// Pascal-case name, the table's sentence, and a full description that
// adds what fixes it (the README's fix and fixAll columns).
func sarifRuleOf(c exchange.CodeInfo) sarifRule {
	fixes := "No fix is offered: edit the review by hand."
	switch {
	case c.FixAll:
		fixes = "An editor offers quick fixes; the one that needs no choice is applied by `lreview-lsp fix` and by an editor's fix-all."
	case c.Fix:
		fixes = "An editor offers quick fixes; each needs a person's choice, so `lreview-lsp fix` leaves it."
	}
	return sarifRule{
		ID:                   c.Code,
		Name:                 ruleName(c.Code),
		ShortDescription:     sarifText{Text: c.Description},
		FullDescription:      sarifText{Text: c.Description + " " + fixes},
		HelpURI:              codesHelpURI,
		DefaultConfiguration: sarifConfig{Level: sarifLevel(c.Severity)},
	}
}

// ruleName spells a code in Pascal case, the form SARIF viewers show as a
// rule's friendly name: "orphaned-anchor" is "OrphanedAnchor". A code of
// one word gets a name of two, as a name that only capitalises the id is
// no name (SARIF §3.49.7; the multitool's SARIF1001 warns of it).
func ruleName(code string) string {
	switch code {
	case exchange.CodeSyntax:
		return "InvalidJson"
	case exchange.CodeSchema:
		return "SchemaViolation"
	case verdict.Code:
		return "ReviewVerdict"
	}
	var b strings.Builder
	for _, w := range strings.Split(code, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// sarifLevel maps a severity to a result level; information and hints are
// notes.
func sarifLevel(s exchange.Severity) string {
	switch s {
	case exchange.SeverityError:
		return "error"
	case exchange.SeverityWarning:
		return "warning"
	}
	return "note"
}

// sarifURI is the artifact location of a file: a relative URI reference
// for a relative name (which code scanning resolves against the
// repository's root), a file URI for an absolute one.
func sarifURI(name string) string {
	if name != "-" && filepath.IsAbs(name) {
		return fileuri.FromPath(filepath.Clean(name)) // C:\x on Windows too
	}
	segments := strings.Split(reportPath(name), "/")
	for i, s := range segments {
		segments[i] = url.PathEscape(s)
	}
	return strings.Join(segments, "/")
}
