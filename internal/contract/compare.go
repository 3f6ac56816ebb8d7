// Package contract is the review's API-contract axis: it finds the
// OpenAPI descriptions a patch changes, rebuilds both sides of each from
// the working tree or the patch alone, compares them with oasdiff (the
// maintained OpenAPI diff and breaking-change checker, over kin-openapi),
// and classifies each change as breaking, non-breaking or informative,
// with the line of each side it is about. It knows nothing of editors:
// features places its findings in the review.
package contract

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Severity is how a change of the contract weighs.
type Severity uint8

const (
	Informative Severity = iota
	NonBreaking
	Breaking
)

func (s Severity) String() string {
	switch s {
	case Breaking:
		return "breaking"
	case NonBreaking:
		return "non-breaking"
	}
	return "informative"
}

// Change is one change of the contract between two texts of a
// specification.
type Change struct {
	// ID is oasdiff's rule id ("api-removed-without-deprecation").
	ID       string
	Severity Severity
	// Summary names what changed, in oasdiff's words
	// ("DELETE /orders/{id}: api removed without deprecation"); it is
	// what a decision quotes, so it holds no line number.
	Summary string
	// Why says why a breaking change breaks its clients.
	Why string
	// OldLine and NewLine are the lines (from 1) of the old and new texts
	// the change is about, 0 when that side has none.
	OldLine, NewLine int
}

// Compare compares two texts of the specification name (YAML or JSON,
// OpenAPI 3.0 or 3.1, $refs within the file only). An empty text is a
// side where the file does not exist: every operation of the other side
// is added or removed. The error names the side that could not be read.
func Compare(name string, old, new []byte) (changes []Change, err error) {
	// A description is data from elsewhere: whatever the libraries do
	// with one they cannot handle is a file not compared, never a crash.
	defer func() {
		if r := recover(); r != nil {
			changes, err = nil, fmt.Errorf("comparing %s failed inside oasdiff: %v", name, r)
		}
	}()
	if len(old) == 0 && len(new) == 0 {
		return nil, nil
	}
	oldSpec, err := loadSide(name, old, new)
	if err != nil {
		return nil, fmt.Errorf("the old %s: %w", name, err)
	}
	newSpec, err := loadSide(name, new, old)
	if err != nil {
		return nil, fmt.Errorf("the new %s: %w", name, err)
	}
	cfg := diff.NewConfig()
	d, sources, err := diff.GetWithOperationsSourcesMap(cfg, oldSpec, newSpec)
	if err != nil {
		return nil, fmt.Errorf("comparing %s: %w", name, err)
	}
	found := checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), d, sources, checker.INFO)
	l := englishMessages()
	out := make([]Change, 0, len(found))
	for _, c := range found {
		out = append(out, changeOf(c, l))
	}
	return out, nil
}

// loadSide parses one side; an empty side is an empty description of the
// other side's version, so that the comparison lists every operation.
func loadSide(name string, text, other []byte) (*load.SpecInfo, error) {
	if len(text) == 0 {
		text = emptySpec(other)
	}
	loader := openapi3.NewLoader()
	// Only $refs within the file: a review's description is data from
	// elsewhere, and must not make the server read other files or the
	// network.
	loader.IsExternalRefsAllowed = false
	loader.IncludeOrigin = true
	spec, err := loader.LoadFromDataWithPath(text, &url.URL{Path: name})
	if err != nil {
		return nil, err
	}
	if spec.OpenAPI == "" {
		return nil, fmt.Errorf("not an OpenAPI 3 description (no openapi member)")
	}
	return &load.SpecInfo{Spec: spec, Source: load.NewFileSource(name), Version: spec.Info.Version}, nil
}

// emptySpec is a description with no path of the version other declares.
func emptySpec(other []byte) []byte {
	version := "3.0.3"
	loader := openapi3.NewLoader()
	if spec, err := loader.LoadFromData(other); err == nil && spec.OpenAPI != "" {
		version = spec.OpenAPI
	}
	return []byte(fmt.Sprintf(`{"openapi": %q, "info": {"title": "", "version": ""}, "paths": {}}`, version))
}

func changeOf(c checker.Change, l checker.Localizer) Change {
	out := Change{ID: c.GetId(), Summary: summaryOf(c, l)}
	switch c.GetLevel() {
	case checker.ERR, checker.WARN:
		out.Severity = Breaking
		out.Why = whyOf(c.GetId(), c.GetLevel())
	default:
		out.Severity = NonBreaking
		if !strings.Contains(c.GetId(), "added") {
			out.Severity = Informative
		}
	}
	if s := c.GetBaseSource(); s != nil {
		out.OldLine = s.Line
	}
	if s := c.GetRevisionSource(); s != nil {
		out.NewLine = s.Line
	}
	return out
}

// summaryOf is "DELETE /orders/{id}: api removed without deprecation".
func summaryOf(c checker.Change, l checker.Localizer) string {
	text := strings.Join(strings.Fields(c.GetUncolorizedText(l)), " ")
	if op, path := c.GetOperation(), c.GetPath(); op != "" && path != "" {
		return op + " " + path + ": " + text
	}
	return text
}
