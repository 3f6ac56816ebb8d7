package contract

import (
	"fmt"

	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/checker/localizations"
)

// englishMessages words a change as oasdiff's default localizer does,
// from the same table of printf patterns, without calling it: its
// lookup falls back to text/template for a pattern holding "}}" (no
// English one does; a test keeps it so), and a reachable
// template.Execute makes the linker keep every exported method of every
// type in the binary. Not calling it leaves out 4 MB of the binary and
// 2 MB of what the server keeps resident from its start.
func englishMessages() checker.Localizer {
	table := localizations.New(localizations.LangDefault, localizations.LangDefault).Localizations
	return func(key string, args ...any) string {
		pattern, ok := table[localizations.LangDefault+".messages."+key]
		if !ok {
			return key
		}
		return fmt.Sprintf(pattern, args...)
	}
}
