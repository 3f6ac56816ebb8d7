package lsp

// clientInfo is initialize's clientInfo: the client's name and version.
type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// showsDocuments reports whether the client answers window/showDocument:
// when it declares window.showDocument.support, and Helix, which answers
// it (since 23.10: it opens the document and selects the range) but
// declares no window capability besides workDoneProgress. Without it,
// "Comment on …" in Helix would leave the cursor where it was.
func (p *initializeParams) showsDocuments() bool {
	return p.Capabilities.Window.ShowDocument.Support || p.ClientInfo.Name == "helix"
}
