package contract

import (
	"strings"

	"github.com/oasdiff/oasdiff/checker"
)

// whyOf says why a breaking change breaks its clients, from the kind of
// rule oasdiff names: its message says what changed, not who it hurts.
func whyOf(id string, level checker.Level) string {
	switch {
	case strings.HasPrefix(id, "api-removed"), strings.HasPrefix(id, "api-path-removed"):
		return "clients calling it get 404"
	case strings.Contains(id, "new-required") || strings.Contains(id, "became-required"):
		return "requests that omit it are now rejected"
	case strings.Contains(id, "type-changed") || strings.Contains(id, "type-generalized") || strings.Contains(id, "format-changed"):
		return "values clients send or read no longer have the type they expect"
	case strings.HasPrefix(id, "response") && strings.Contains(id, "removed"):
		return "clients reading it no longer find it"
	case strings.HasPrefix(id, "request") && strings.Contains(id, "removed"):
		return "clients sending it are no longer understood"
	case strings.Contains(id, "enum-value-removed") || strings.Contains(id, "max") || strings.Contains(id, "min") || strings.Contains(id, "pattern"):
		return "values clients send today may now be rejected"
	case strings.Contains(id, "security"):
		return "clients authorized today may now be refused"
	}
	if level == checker.WARN {
		return "clients may break"
	}
	return "existing clients break"
}
