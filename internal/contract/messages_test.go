package contract

import (
	"strings"
	"testing"

	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/checker/localizations"
)

// TestEnglishMessagesAreOasdiffs: every English message, worded by
// englishMessages and by oasdiff's own localizer, reads the same; and no
// pattern is a template, the case englishMessages does not handle.
func TestEnglishMessagesAreOasdiffs(t *testing.T) {
	ours, theirs := englishMessages(), checker.NewDefaultLocalizer()
	prefix := localizations.LangDefault + ".messages."
	args := []any{"'orders'", "query", 3, "string", "integer", "v2", "'id'", "body", 7, "%"}
	n := 0
	for key, pattern := range localizations.New(localizations.LangDefault, localizations.LangDefault).Localizations {
		id, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		n++
		if strings.Contains(pattern, "}}") {
			t.Errorf("%s is a template (%q): englishMessages would print it as it is", key, pattern)
		}
		some := args[:min(strings.Count(pattern, "%"), len(args))]
		want := theirs(id, some...)
		if got := ours(id, some...); got != want {
			t.Errorf("%s: got %q, want %q", id, got, want)
		}
	}
	if n < 100 {
		t.Fatalf("found %d English messages, want the hundreds oasdiff has", n)
	}
	if got, want := ours("no-such-change"), theirs("no-such-change"); got != want {
		t.Errorf("an unknown id: got %q, want %q", got, want)
	}
}
