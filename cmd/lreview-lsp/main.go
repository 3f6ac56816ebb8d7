// Command lreview-lsp serves the Language Server Protocol for review
// exchange files (*.review.json) to editors and their tools to agents
// (mcp); from the command line it checks, formats, fixes and rebases
// them, makes new ones, carries them to and from GitHub and GitLab
// (export, import), and meets them with the working tree (locate, apply).
package main

import (
	"fmt"
	"io"
	"os"
)

// version is the version this binary reports (`version`, serverInfo, the
// MCP implementation, SARIF): see version.go.
var version = buildVersion(releaseVersion, readBuildInfo())

const usage = `lreview-lsp — a language server and checker for review exchange files (*.review.json)

Usage:
  lreview-lsp [--stdio]                           serve the Language Server Protocol on stdin/stdout
  lreview-lsp check [--format F] FILE...          report problems; exit 1 when there is an error
                                                  (F: text, json, sarif, rdjson, github)
  lreview-lsp fmt [-w] FILE...                    print the canonical form (-w: rewrite the files)
  lreview-lsp fix [-w] FILE...                    apply the fixes that need no choice (-w: in place); print
                                                  each, then one "left ..." line per comment not settled;
                                                  exit 1 when an error remains, as check would
  lreview-lsp rebase [-w] FILE NEW.diff           replace the patch with NEW.diff and move comments by content
  lreview-lsp export --to github|gitlab FILE      print the review as a GitHub review or GitLab discussions (JSON)
  lreview-lsp import --from github --comments C --patch D [--reviews R] [-o OUT]
  lreview-lsp import --from gitlab --discussions C --patch D [--head SHA] [-o OUT]
                                                  make a review from a pull request's review threads
                                                  or a merge request's discussions
  lreview-lsp new [--title T] [--summary S] [DIFF|-]
                                                  print a new review around a unified diff (default: stdin)
  lreview-lsp mcp [--root DIR]                    serve the agent tools (Model Context Protocol) on stdin/stdout
  lreview-lsp locate [--root DIR] [--format F] FILE
                                                  where each comment's lines are in the working tree
                                                  (F: text, json)
  lreview-lsp apply [--dry-run] [--root DIR] FILE apply the comments' suggestion blocks to the working tree
  lreview-lsp cohorts [--format F] [--root DIR] [--deps] FILE
                                                  the review's cohorts riskiest first, with reasons and blast
                                                  radius, from a code graph of the working tree; --deps: the
                                                  dependency changes only (F: text, json)
  lreview-lsp version                             print the version

FILE may be - for standard input. Exit status: 0 clean, 1 errors found, 2 usage or I/O problem.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// stdio joins standard input and output into the stream the server reads
// and writes.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--stdio" || args[0] == "serve" {
		return serve(stdin, stdout, stderr)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return runCheck(rest, stdin, stdout, stderr)
	case "fmt":
		return runFmt(rest, stdin, stdout, stderr)
	case "fix":
		return runFix(rest, stdin, stdout, stderr)
	case "rebase":
		return runRebase(rest, stdin, stdout, stderr)
	case "export":
		return runExport(rest, stdin, stdout, stderr)
	case "import":
		return runImport(rest, stdin, stdout, stderr)
	case "new":
		return runNew(rest, stdin, stdout, stderr)
	case "mcp":
		return runMCP(rest, stdin, stdout, stderr)
	case "locate":
		return runLocate(rest, stdin, stdout, stderr)
	case "apply":
		return runApply(rest, stdin, stdout, stderr)
	case "cohorts":
		return runCohorts(rest, stdin, stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "lreview-lsp %s\n", versionLine(version, readBuildInfo()))
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "lreview-lsp: unknown command %q\n\n%s", cmd, usage)
	return 2
}
