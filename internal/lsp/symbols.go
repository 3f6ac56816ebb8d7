package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// symbolKind maps an outline entry to the protocol's kind.
func symbolKind(k features.SymbolKind) protocol.SymbolKind {
	switch k {
	case features.SymbolFile:
		return protocol.SymbolKindFile
	case features.SymbolComments:
		return protocol.SymbolKindArray
	case features.SymbolComment:
		return protocol.SymbolKindEvent
	}
	return protocol.SymbolKindNamespace // directories and hunks
}

// documentSymbols answers with the outline, already in JSON. Its part for
// the patch, every file and hunk, is taken over from an earlier version
// while the patch, the position it begins at and the outline's counts are
// the same (versionCache.outlinePatch): an editor asks again after every
// keystroke, which on a large review is in a comment.
func documentSymbols(ctx context.Context, v *requestView, p *protocol.DocumentSymbolParams) (json.RawMessage, error) {
	sn, an, err := v.analysisOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	conv := Converter{M: an.Doc.Mapper(), Enc: sn.enc}
	caps := v.clientCaps()
	if !caps.hierarchical {
		return fastjson.Marshal(flatSymbols(conv, p.TextDocument.URI, an, caps))
	}
	patch, err := sn.cache.outlinePatch(conv, an)
	if err != nil {
		return nil, err
	}
	out := append([]byte{'['}, patch...)
	var groups []features.Symbol
	if g, ok := features.CommentSymbols(an); ok {
		groups = append(groups, g)
	}
	// The cohorts, once the working tree's graph is ready (shape.go).
	if sh, _, _ := v.shapeOf(p.TextDocument.URI, an); sh != nil {
		if g, ok := features.CohortSymbols(an, sh); ok {
			groups = append(groups, g)
		}
	}
	if len(groups) > 0 {
		enc, err := fastjson.Marshal(caps.symbols(convertSymbols(conv, groups)))
		if err != nil {
			return nil, err
		}
		if len(patch) > 0 {
			out = append(out, ',')
		}
		out = append(out, enc[1:len(enc)-1]...)
	}
	return append(out, ']'), nil
}

// outlinePart is the patch's part of an outline, encoded. It holds
// nothing of the version it was made for (the outline's names and counts
// are copies), so a later version that takes it over keeps that version
// alive no longer.
type outlinePart struct {
	patch patchKey
	dirs  []features.DirSummary
	// json is the part's symbols encoded, without the brackets of the
	// array they are elements of.
	json []byte
}

// outlinePatch returns the encoded outline of the patch of the cache's
// version, an, taking over the prior one when it was made for the same
// patch with the same counts. It is made outside the lock, which the
// next version's cache takes to start (versionCache.next): two requests
// at once may both make it, and the first kept is the one both answer.
func (c *versionCache) outlinePatch(conv Converter, an *anchor.Analysis) ([]byte, error) {
	c.mu.Lock()
	cur, prior := c.outline, c.prior.outline
	c.mu.Unlock()
	if cur != nil {
		return cur.json, nil
	}
	dirs := features.Outline(an.Anchors, an.Doc)
	key := patchKeyOf(conv, an.Doc)
	if prior != nil && prior.patch == key && sameOutline(prior.dirs, dirs) {
		cur = prior
	} else {
		part := []byte{}
		if syms := convertSymbols(conv, features.PatchSymbols(an, dirs)); len(syms) > 0 {
			enc, err := fastjson.Marshal(syms)
			if err != nil {
				return nil, err
			}
			part = enc[1 : len(enc)-1]
		}
		cur = &outlinePart{patch: key, dirs: detached(dirs), json: part}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.outline == nil {
		c.outline, c.prior.outline = cur, nil
	}
	return c.outline.json, nil
}

// detached returns the names and counts of an outline, without its file
// diffs and with names of their own.
func detached(dirs []features.DirSummary) []features.DirSummary {
	out := make([]features.DirSummary, len(dirs))
	for i, d := range dirs {
		out[i] = features.DirSummary{Dir: strings.Clone(d.Dir), Changed: d.Changed, Active: d.Active, Files: make([]features.FileSummary, len(d.Files))}
		for j, f := range d.Files {
			out[i].Files[j] = features.FileSummary{Name: strings.Clone(f.Name), Changed: f.Changed, Active: f.Active}
		}
	}
	return out
}

// sameOutline reports whether two outlines of the same patch name the
// same directories and files, in the same order, with the same counts.
func sameOutline(a, b []features.DirSummary) bool {
	return slices.EqualFunc(a, b, func(x, y features.DirSummary) bool {
		return x.Dir == y.Dir && x.Changed == y.Changed && x.Active == y.Active &&
			slices.EqualFunc(x.Files, y.Files, func(f, g features.FileSummary) bool {
				return f.Name == g.Name && f.Changed == g.Changed && f.Active == g.Active
			})
	})
}

func convertSymbols(conv Converter, syms []features.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(syms))
	for _, sym := range syms {
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Detail:         sym.Detail,
			Kind:           symbolKind(sym.Kind),
			Tags:           symbolTags(sym),
			Range:          conv.Range(sym.Range),
			SelectionRange: conv.Range(sym.Selection),
		}
		if len(sym.Children) > 0 {
			ds.Children = convertSymbols(conv, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}

// symbolTags marks a dismissed comment deprecated: clients strike it
// through. Tags replace the deprecated flag (LSP 3.16), which is not sent.
func symbolTags(sym features.Symbol) []protocol.SymbolTag {
	if sym.Dismissed {
		return []protocol.SymbolTag{protocol.SymbolTagDeprecated}
	}
	return nil
}

// symbols shapes syms for the client: no tags to one that takes none,
// only kinds it takes.
func (c clientCaps) symbols(syms []protocol.DocumentSymbol) []protocol.DocumentSymbol {
	for i := range syms {
		if !c.symbolTags {
			syms[i].Tags = nil
		}
		syms[i].Kind = c.symbolKind(syms[i].Kind)
		syms[i].Children = c.symbols(syms[i].Children)
	}
	return syms
}

// flatSymbols is the outline for a client without
// hierarchicalDocumentSymbolSupport: every entry as a SymbolInformation,
// in the tree's order, named with the entry that holds it.
func flatSymbols(conv Converter, uri protocol.DocumentURI, an *anchor.Analysis, caps clientCaps) []protocol.SymbolInformation {
	tree := features.PatchSymbols(an, features.Outline(an.Anchors, an.Doc))
	if g, ok := features.CommentSymbols(an); ok {
		tree = append(tree, g)
	}
	out := []protocol.SymbolInformation{}
	var walk func(syms []features.Symbol, container string)
	walk = func(syms []features.Symbol, container string) {
		for _, sym := range syms {
			si := protocol.SymbolInformation{
				Name:          sym.Name,
				Kind:          caps.symbolKind(symbolKind(sym.Kind)),
				Location:      protocol.Location{URI: uri, Range: conv.Range(sym.Range)},
				ContainerName: container,
			}
			if caps.symbolTags {
				si.Tags = symbolTags(sym)
			}
			out = append(out, si)
			walk(sym.Children, sym.Name)
		}
	}
	walk(tree, "")
	return out
}
