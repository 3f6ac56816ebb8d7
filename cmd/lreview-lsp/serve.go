package main

import (
	"context"
	"io"

	"github.com/leanreview/lreview-lsp/internal/lsp"
)

// serve runs the language server on standard input and output. Standard
// error gets what the server cannot tell the client, such as why it could
// not read the stream any further.
func serve(stdin io.Reader, stdout, stderr io.Writer) int {
	srv := lsp.NewServer(lsp.Options{Version: version, Log: stderr, Debounce: lsp.DefaultDebounce})
	return srv.Serve(context.Background(), stdio{stdin, stdout})
}
