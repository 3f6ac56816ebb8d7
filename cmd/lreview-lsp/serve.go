package main

import "github.com/leanreview/lreview-lsp/internal/lsp"

func newServer() *lsp.Server { return lsp.NewServer(lsp.Options{Version: version}) }
