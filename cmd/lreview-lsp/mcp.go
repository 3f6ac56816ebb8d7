package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/agent"
)

// runMCP serves the agent tools over the Model Context Protocol on
// standard input and output.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the directory whose files the tools may read and write (default: the working directory)")
	agentName := fs.String("agent", "", "who the agent writes as, and whose words alone it may edit (default: the name its client gives at initialize, else "+agent.DefaultAuthor+")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "lreview-lsp mcp: usage: lreview-lsp mcp [--root DIR] [--agent NAME]")
		return 2
	}
	srv, err := agent.NewServer(agent.Options{Root: *root, Version: version, Agent: *agentName})
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp mcp: %v\n", err)
		return 2
	}
	t := &agent.StdioTransport{Reader: stdin, Writer: stdout}
	if err := srv.Run(context.Background(), t); err != nil {
		fmt.Fprintf(stderr, "lreview-lsp mcp: %v\n", err)
		return 1
	}
	return 0
}
