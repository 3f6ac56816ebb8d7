package main

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/forge"
)

// The README's forge tables, written from the forges' table: readme_test
// checks the README holds them as written here (go test -update rewrites
// them).

// forgeHoldsTable is the table of what each forge's review holds.
func forgeHoldsTable() string {
	var b strings.Builder
	b.WriteString("| forge | replies | ranges | sides |\n|---|---|---|---|\n")
	for _, f := range forge.Forges() {
		b.WriteString(tableRow(f.Title, f.Threads, f.Ranges, f.Sides))
	}
	return b.String()
}

// forgeStatesTable is the table of how each forge's states map.
func forgeStatesTable() string {
	var b strings.Builder
	b.WriteString("| forge | open | resolved: kept `active`, said | declined: `dismissed` | `stale` |\n|---|---|---|---|---|\n")
	for _, f := range forge.Forges() {
		b.WriteString(tableRow(f.Title, f.Open, f.Resolved, f.Declined, f.Stale))
	}
	return b.String()
}

func tableRow(cells ...string) string {
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return "| " + strings.Join(cells, " | ") + " |\n"
}
