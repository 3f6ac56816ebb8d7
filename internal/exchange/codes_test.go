package exchange

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// specCode is one row of diagnostics.md's codes table.
type specCode struct {
	code, severity string
	fixes          bool
}

// specCodes reads the codes table of diagnostics.md: the rows after the
// "| code | severity |" header, up to the table's end.
func specCodes(t *testing.T) []specCode {
	t.Helper()
	var out []specCode
	in := false
	for _, line := range strings.Split(string(refdata.File(t, "spec/diagnostics.md")), "\n") {
		switch {
		case strings.HasPrefix(line, "| code | severity |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(line, " | ")
			if len(cells) < 5 {
				t.Fatalf("diagnostics.md: row %q: want 5 cells", line)
			}
			sev, _, _ := strings.Cut(cells[1], " ")
			out = append(out, specCode{
				code:     strings.Trim(cells[0], "| `"),
				severity: sev,
				fixes:    strings.TrimSuffix(strings.TrimSpace(cells[len(cells)-1]), " |") != "—",
			})
		case in:
			return out
		}
	}
	return out
}

// TestCodesMatchSpec holds the format's codes to diagnostics.md's table:
// its codes first, in its order, each with its usual severity and a fix
// exactly where the spec offers one; the project's additions after.
func TestCodesMatchSpec(t *testing.T) {
	spec := specCodes(t)
	codes := Codes()
	if len(spec) == 0 || len(codes) < len(spec) {
		t.Fatalf("diagnostics.md lists %d codes, Codes %d: want the spec's first", len(spec), len(codes))
	}
	words := map[Severity]string{SeverityError: "error", SeverityWarning: "warning", SeverityInformation: "information", SeverityHint: "hint"}
	for i, s := range spec {
		c := codes[i]
		if c.Code != s.code {
			t.Errorf("Codes()[%d] is %q, want diagnostics.md's %q", i, c.Code, s.code)
			continue
		}
		if words[c.Severity] != s.severity {
			t.Errorf("%s: severity %s, want diagnostics.md's %s", c.Code, words[c.Severity], s.severity)
		}
		if c.Fix != s.fixes {
			t.Errorf("%s: Fix %v, want %v (diagnostics.md's fixes offered)", c.Code, c.Fix, s.fixes)
		}
		if c.EditorOnly {
			t.Errorf("%s: EditorOnly, but diagnostics.md's codes are `check`'s too", c.Code)
		}
	}
}
