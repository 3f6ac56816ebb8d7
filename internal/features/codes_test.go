package features

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// repoFile reads a file of the repository; the docs and editor manifests
// are part of it, so their absence is a failure, never a skip.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	return string(data)
}

func severityWord(s exchange.Severity) string {
	if s == exchange.SeverityInformation {
		return "information"
	}
	return s.String()
}

func yesOrDash(b bool) string {
	if b {
		return "yes"
	}
	return "—"
}

// describe is a code's sentence as the docs show it.
func describe(c exchange.CodeInfo) string {
	if c.EditorOnly {
		return "Editors only. " + c.Description
	}
	return c.Description
}

// readmeCodes is the README's codes table as Codes describes it.
func readmeCodes() string {
	var b strings.Builder
	b.WriteString("| code | severity | fix | fixAll | meaning |\n|---|---|---|---|---|\n")
	for _, c := range Codes() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.Code, severityWord(c.Severity), yesOrDash(c.Fix), yesOrDash(c.FixAll), describe(c))
	}
	return b.String()
}

// vimCodes is the Neovim help's list of codes as Codes describes it.
func vimCodes() string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %-24s %-12s %s\n", "code", "severity", "fixes")
	for _, c := range Codes() {
		fixes := "-"
		switch {
		case c.FixAll:
			fixes = "quick fix, fix all"
		case c.Fix:
			fixes = "quick fix"
		}
		if c.EditorOnly {
			fixes += " (server only)"
		}
		fmt.Fprintf(&b, "    %-24s %-12s %s\n", c.Code, severityWord(c.Severity), fixes)
	}
	return b.String()
}

// TestCodesDocumented checks every place that lists the codes against the
// one table: the README, the VS Code setting that silences codes and the
// Neovim help.
func TestCodesDocumented(t *testing.T) {
	t.Run("README", func(t *testing.T) {
		if want := readmeCodes(); !strings.Contains(repoFile(t, "README.md"), want) {
			t.Errorf("README.md lacks the codes table of features.Codes; want it to read\n%s", want)
		}
	})
	t.Run("vim-help", func(t *testing.T) {
		if want := vimCodes(); !strings.Contains(repoFile(t, "editors/vim/doc/lreview.txt"), want) {
			t.Errorf("editors/vim/doc/lreview.txt lacks the codes list of features.Codes; want it to read\n%s", want)
		}
	})
	t.Run("vscode-package", func(t *testing.T) {
		var pkg struct {
			Contributes struct {
				Configuration struct {
					Properties map[string]struct {
						Items struct {
							Enum             []string `json:"enum"`
							EnumDescriptions []string `json:"enumDescriptions"`
						} `json:"items"`
					} `json:"properties"`
				} `json:"configuration"`
			} `json:"contributes"`
		}
		if err := json.Unmarshal([]byte(repoFile(t, "editors/vscode/package.json")), &pkg); err != nil {
			t.Fatalf("editors/vscode/package.json: %v", err)
		}
		items := pkg.Contributes.Configuration.Properties["lreview.diagnostics.disabled"].Items
		var want, wantDesc []string
		for _, c := range Codes() {
			want = append(want, c.Code)
			wantDesc = append(wantDesc, describe(c))
		}
		if !slices.Equal(items.Enum, want) {
			t.Errorf("editors/vscode/package.json lreview.diagnostics.disabled items.enum:\ngot  %q\nwant %q (every code diagnostics.disabled can silence)", items.Enum, want)
		}
		if !slices.Equal(items.EnumDescriptions, wantDesc) {
			t.Errorf("editors/vscode/package.json lreview.diagnostics.disabled items.enumDescriptions:\ngot  %q\nwant %q", items.EnumDescriptions, wantDesc)
		}
	})
}

// TestCodesTable checks the table itself: unique codes in kebab case, a
// sentence for each, fixAll only where a fix exists.
func TestCodesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes() {
		t.Run(c.Code, func(t *testing.T) {
			if seen[c.Code] {
				t.Errorf("code %s listed twice", c.Code)
			}
			seen[c.Code] = true
			if strings.Trim(c.Code, "abcdefghijklmnopqrstuvwxyz-") != "" {
				t.Errorf("code %q: want lower-case words joined by hyphens", c.Code)
			}
			if !strings.HasSuffix(c.Description, ".") || strings.Contains(c.Description, "|") {
				t.Errorf("code %s: description %q: want one sentence ending in a period, without |", c.Code, c.Description)
			}
			if c.FixAll && !c.Fix {
				t.Errorf("code %s: FixAll without Fix", c.Code)
			}
		})
	}
}
