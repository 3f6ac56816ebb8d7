package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/forge"
)

// command is one command of the command line: one row, from which run
// dispatches and the help is written (readme_test checks the README's
// table and each command's flags against it).
type command struct {
	name     string
	synopsis []string // its usage lines, after "lreview-lsp "
	help     []string // what it does, one line each
	run      func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands are the commands, in the order the help lists them.
func commands() []command {
	return []command{
		{"check", []string{"check [--format F] [--root DIR] FILE..."}, []string{
			"report problems; exit 1 when there is an error",
			"(F: text, json, sarif, rdjson, github; DIR: the working tree",
			"OpenAPI descriptions are read from)"}, runCheck},
		{"fmt", []string{"fmt [-w] FILE..."}, []string{"print the canonical form (-w: rewrite the files)"}, runFmt},
		{"fix", []string{"fix [-w] FILE..."}, []string{
			"apply the fixes that need no choice (-w: in place); print",
			"each, then one \"left ...\" line per comment not settled;",
			"exit 1 when an error remains, as check would"}, runFix},
		{"rebase", []string{"rebase [-w] FILE NEW.diff"}, []string{"replace the patch with NEW.diff and move comments by content"}, runRebase},
		{"export", exportSynopses(), []string{
			"print the review as the JSON the forge takes; exit 1, nothing",
			"printed, when the forge would refuse it"}, runExport},
		{"import", importSynopses(), []string{
			"make a review from a pull request's, merge request's or",
			"change's threads"}, runImport},
		{"new", []string{"new [--title T] [--summary S] [DIFF|-]"}, []string{"print a new review around a unified diff (default: stdin)"}, runNew},
		{"mcp", []string{"mcp [--root DIR] [--agent NAME]"}, []string{"serve the agent tools (Model Context Protocol) on stdin/stdout,", "writing as NAME (default: the name its client gives)"}, runMCP},
		{"locate", []string{"locate [--root DIR] [--format F] FILE"}, []string{"where each comment's lines are in the working tree", "(F: text, json)"}, runLocate},
		{"apply", []string{"apply [--dry-run] [--root DIR] FILE"}, []string{"apply the comments' suggestion blocks to the working tree"}, runApply},
		{"cohorts", []string{"cohorts [--format F] [--root DIR] [--deps] FILE"}, []string{
			"the review's cohorts riskiest first, with reasons and blast",
			"radius, from a code graph of the working tree; --deps: the",
			"dependency changes only (F: text, json)"}, runCohorts},
		{"version", []string{"version"}, []string{"print the version"}, runVersion},
	}
}

func runVersion(_ []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "lreview-lsp %s\n", versionLine(version, readBuildInfo()))
	return 0
}

// helpColumn is where a command's help starts on its line.
const helpColumn = 50

// usage is the help, written from the commands and the forges.
func usage() string {
	var b strings.Builder
	b.WriteString("lreview-lsp — a language server and checker for review exchange files (*.review.json)\n\nUsage:\n")
	row := func(syn string, help []string) {
		line := "  lreview-lsp " + syn
		for i, h := range help {
			if i > 0 || len(line) >= helpColumn-1 {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line = ""
			}
			line += strings.Repeat(" ", helpColumn-len(line)) + h
		}
		b.WriteString(line + "\n")
	}
	row("[--stdio]", []string{"serve the Language Server Protocol on stdin/stdout"})
	for _, c := range commands() {
		for _, s := range c.synopsis[:len(c.synopsis)-1] {
			b.WriteString("  lreview-lsp " + s + "\n")
		}
		row(c.synopsis[len(c.synopsis)-1], c.help)
	}
	b.WriteString("\nForges: " + forgeList(", ") + " (the README's \"Post to a forge\" says how to post to each).\n")
	b.WriteString("FILE may be - for standard input. Exit status: 0 clean, 1 errors found, 2 usage or I/O problem.\n")
	return b.String()
}

// forgeList names the forges, the last two joined by last.
func forgeList(last string) string {
	var names []string
	for _, f := range forge.Forges() {
		names = append(names, f.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}

// forgesTaking names the forges whose export takes flag ("github or gitea").
func forgesTaking(flag string) string {
	var names []string
	for _, f := range forge.Forges() {
		if slices.Contains(f.ExportFlags, flag) {
			names = append(names, f.Name)
		}
	}
	return orList(names)
}

// forgesWithReplies names the forges whose export takes --replies v.
func forgesWithReplies(v string) string {
	var names []string
	for _, f := range forge.Forges() {
		if slices.Contains(f.Replies, v) {
			names = append(names, f.Name)
		}
	}
	return orList(names)
}

func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// exportFlagSynopsis is how a forge-only export flag is written in a
// synopsis.
var exportFlagSynopsis = map[string]string{
	"event":      "[--event COMMENT|REQUEST_CHANGES|APPROVE]",
	"commit":     "[--commit SHA]",
	"base-sha":   "--base-sha B",
	"start-sha":  "--start-sha S",
	"head-sha":   "--head-sha H",
	"replies-to": "[--replies-to POSTED.json]",
}

// exportSynopsis is one forge's export usage line.
func exportSynopsis(f forge.Forge) string {
	parts := []string{"export --to " + f.Name}
	for _, n := range exportOnly {
		if slices.Contains(f.ExportFlags, n) {
			parts = append(parts, exportFlagSynopsis[n])
		}
	}
	if slices.Contains(f.ExportFlags, "commit") || slices.Contains(f.ExportFlags, "head-sha") {
		parts = append(parts, "[--repo DIR]")
	}
	parts = append(parts, "[--replies "+strings.Join(f.Replies, "|")+"]", "[--cohorts] [--no-marker] [--skip-unresolved] FILE")
	return strings.Join(parts, " ")
}

func exportSynopses() []string {
	var out []string
	for _, f := range forge.Forges() {
		out = append(out, exportSynopsis(f))
	}
	return out
}

// importSynopsis is one forge's import usage line.
func importSynopsis(f forge.Forge) string {
	parts := []string{"import --from " + f.Name}
	for i, l := range f.Listings {
		arg := "--" + l.Flag + " " + strings.ToUpper(l.Flag) + ".json"
		if i > 0 {
			arg = "[" + arg + "]"
		}
		parts = append(parts, arg)
	}
	parts = append(parts, "--patch D")
	if f.Head != "" {
		parts = append(parts, "[--head REV]")
	}
	if f.Repo {
		parts = append(parts, "[--repo DIR]")
	}
	parts = append(parts, "[--trust ACCOUNT,…] [-o OUT]")
	return strings.Join(parts, " ")
}

func importSynopses() []string {
	var out []string
	for _, f := range forge.Forges() {
		out = append(out, importSynopsis(f))
	}
	return out
}

// exportUsage is export's usage, one line per forge.
func exportUsage() string {
	return "usage: lreview-lsp " + strings.Join(exportSynopses(), "\n       lreview-lsp ")
}

// importUsage is import's usage, one line per forge.
func importUsage() string {
	return "usage: lreview-lsp " + strings.Join(importSynopses(), "\n       lreview-lsp ")
}
