package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
)

// completion proposes member names, enumerated values, the patch's paths
// and the line numbers of the chosen image (see features.Complete),
// on documents as half-typed as they are while being written.
func completion(ctx context.Context, v *requestView, p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	conv, an, off, err := v.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	caps := v.clientCaps()
	return completionList(conv, features.Complete(an, off), caps.snippets, caps), nil
}

var itemKinds = map[features.ItemKind]protocol.CompletionItemKind{
	features.ItemMember: protocol.CompletionItemKindProperty,
	features.ItemEnum:   protocol.CompletionItemKindEnumMember,
	features.ItemPath:   protocol.CompletionItemKindFile,
	features.ItemLine:   protocol.CompletionItemKindValue,
	features.ItemValue:  protocol.CompletionItemKindValue,
	// A whole new comment object: a template, which clients show as such.
	features.ItemComment: protocol.CompletionItemKindSnippet,
}

// completionList converts candidates, as the client declared it takes
// them: documentation in Markdown or plain text, kinds it knows, preselect
// and insertTextMode only when it supports them. Every item carries a text edit over
// the partial token, not an insertText: clients disagree on what word an
// insertText replaces, and a token such as `"inter` starts with a quote
// that no word definition includes.
func completionList(conv Converter, c features.Completion, snippets bool, caps clientCaps) *protocol.CompletionList {
	rng := conv.Range(c.Range)
	list := &protocol.CompletionList{Items: make([]protocol.CompletionItem, 0, len(c.Items))}
	for _, it := range c.Items {
		item := protocol.CompletionItem{
			Label:            it.Label,
			Kind:             caps.completionKind(itemKinds[it.Kind]),
			Detail:           it.Detail,
			FilterText:       it.Filter,
			SortText:         it.Sort,
			Preselect:        it.Preselect && caps.preselect,
			InsertTextFormat: protocol.InsertTextFormatPlainText,
			TextEdit:         &protocol.TextEdit{Range: rng, NewText: it.Text},
		}
		if snippets && it.Snippet != "" {
			item.InsertTextFormat = protocol.InsertTextFormatSnippet
			item.TextEdit.NewText = it.Snippet
		}
		if strings.Contains(item.TextEdit.NewText, "\n") {
			if caps.asIs {
				// Its lines are indented as the document's comments are:
				// the client must not indent them again.
				item.InsertTextMode = protocol.InsertTextModeAsIs
			} else {
				// The client indents them by the cursor's line (the
				// protocol's default mode), so they say only the rest.
				item.TextEdit.NewText = features.RelativeIndent(item.TextEdit.NewText, c.Indent)
			}
		}
		switch {
		case it.Doc != "" && caps.docMarkdown:
			item.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Doc}
		case it.Doc != "":
			item.Documentation = protocol.MarkupContent{Kind: protocol.PlainText, Value: features.PlainText(it.Doc)}
		}
		if len(it.Extra) > 0 {
			item.AdditionalTextEdits = conv.TextEdits(it.Extra)
		}
		list.Items = append(list.Items, item)
	}
	return list
}
