package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Converter turns byte offsets of one document into protocol positions in
// the session's encoding, and back. It wraps the project's one Mapper.
type Converter struct {
	M   *exchange.Mapper
	Enc exchange.Encoding
	// cursor, when set, converts the offsets: faster when they mostly
	// ascend, and owned by one goroutine (withCursor).
	cursor *exchange.Cursor
}

// withCursor returns c converting through a cursor of its own, for a
// caller converting offsets that mostly ascend, on one goroutine.
func (c Converter) withCursor() Converter {
	cur := c.M.Cursor(c.Enc)
	c.cursor = &cur
	return c
}

func (c Converter) Position(offset int) protocol.Position {
	var p exchange.Position
	if c.cursor != nil {
		p = c.cursor.Position(offset)
	} else {
		p = c.M.Position(offset, c.Enc)
	}
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func (c Converter) Range(r exchange.Range) protocol.Range {
	return protocol.Range{Start: c.Position(r.Start), End: c.Position(r.End)}
}

// Offset converts a client position; an impossible one is an error the
// handler returns as is.
func (c Converter) Offset(p protocol.Position) (int, error) {
	return c.M.Offset(exchange.Position{Line: int(p.Line), Character: int(p.Character)}, c.Enc)
}

// Span converts a client range to byte offsets. A range that runs past
// the last line, as "the whole document" requests often do, ends at the
// end of the document.
func (c Converter) Span(r protocol.Range) (exchange.Range, error) {
	if last := uint32(c.M.Lines()); r.End.Line >= last {
		r.End = c.Position(1 << 62)
	}
	start, err := c.Offset(r.Start)
	if err != nil {
		return exchange.Range{}, err
	}
	end, err := c.Offset(r.End)
	if err != nil {
		return exchange.Range{}, err
	}
	return exchange.Range{Start: start, End: max(start, end)}, nil
}

func (c Converter) TextEdits(edits []exchange.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: c.Range(exchange.Range{Start: e.Start, End: e.End}), NewText: e.NewText}
	}
	return out
}

// DiagnosticData is the data payload of every diagnostic: the reason and
// the fixes, as edits ready to apply, so that code actions and scripts
// reading `check --format json` never parse messages.
type DiagnosticData struct {
	Reason string    `json:"reason,omitempty"`
	Fixes  []FixData `json:"fixes,omitempty"`
}

// FixData is one fix of a diagnostic.
type FixData struct {
	Title       string              `json:"title"`
	IsPreferred bool                `json:"isPreferred,omitempty"`
	FixAll      bool                `json:"fixAll,omitempty"`
	Edits       []protocol.TextEdit `json:"edits"`
}

// Diagnostics converts diagnostics to their protocol form.
func (c Converter) Diagnostics(uri protocol.DocumentURI, ds []exchange.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for i := range ds {
		out = append(out, c.Diagnostic(uri, &ds[i]))
	}
	return out
}

// Diagnostic converts one diagnostic to its protocol form.
func (c Converter) Diagnostic(uri protocol.DocumentURI, d *exchange.Diagnostic) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Range:    c.Range(d.Range),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     d.Code,
		Source:   "lreview",
		Message:  d.Message,
	}
	if d.Unnecessary {
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range d.Related {
		if r.File != "" {
			pd.RelatedInformation = append(pd.RelatedInformation, sourceRelated(r))
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri, Range: c.Range(r.Range)},
			Message:  r.Message,
		})
	}
	if d.Reason != "" || len(d.Fixes) > 0 {
		data := DiagnosticData{Reason: d.Reason}
		for _, f := range d.Fixes {
			data.Fixes = append(data.Fixes, FixData{Title: f.Title, IsPreferred: f.Preferred, FixAll: f.Safe, Edits: c.TextEdits(f.Edits)})
		}
		pd.Data = data
	}
	return pd
}
