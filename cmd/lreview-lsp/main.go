// Command lreview-lsp serves the Language Server Protocol for review
// exchange files (*.review.json) to editors and their tools to agents
// (mcp); from the command line it checks, formats, fixes and rebases
// them, makes new ones, carries them to and from the forges of
// internal/forge's table (export, import), and meets them with the
// working tree (locate, apply). The commands are one table (commands.go),
// from which the help is written.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is the version this binary reports (`version`, serverInfo, the
// MCP implementation, SARIF): see version.go.
var version = buildVersion(releaseVersion, readBuildInfo())

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
	for _, c := range commands() {
		if c.name == cmd {
			return c.run(rest, stdin, stdout, stderr)
		}
	}
	switch cmd {
	case "--version":
		return runVersion(rest, stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	fmt.Fprintf(stderr, "lreview-lsp: unknown command %q\n\n%s", cmd, usage())
	return 2
}
