package lsp

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// publish sends the snapshot's diagnostics, less the codes the user
// silenced, tagged with the document version they belong to. It sends
// nothing if sn is no longer f's latest version or f was closed by the
// time they are ready, or if a publish decided later (gen) was sent
// first: converting them takes a while on a large review, and a late
// publish would replace newer diagnostics, or bring back those of a
// closed file, in the editor.
func (s *Server) publish(f *file, sn *snapshot, an *Analysis, gen uint64) {
	ds := visibleDiagnostics(append(features.DismissedHints(an.Doc), an.Diagnostics...), s.currentSettings().Diagnostics.Disabled)
	parts, err := f.diags.encode(sn.uri, sn.version, an.Doc, Converter{M: an.Mapper, Enc: sn.enc}, ds)
	if err != nil {
		s.logf(protocol.MessageTypeError, "publishDiagnostics for %s version %d: %v", sn.uri, sn.version, err)
		return
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	latest := !s.closed && s.isLatest(f, sn) && f.claim(gen)
	s.mu.Unlock()
	if !latest {
		return
	}
	// Sent as encoded: jsonrpc2 would encode the params again, with HTML
	// escaping, which on a large review costs more than building them.
	_ = s.tr.writeParts(parts...)
	s.armIdleCollect()
}

const publishPrefix = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":`

// diagCache keeps the diagnostics of a document's last publish, converted
// and encoded. The protocol sends the whole list every time, but an edit
// on a large review changes a few of its thousands of diagnostics: those
// wholly before the first changed byte keep their positions and are taken
// as they were, and any other whose protocol form did not change is
// copied as encoded, so that the cost of a publish follows the change,
// not the size of the review.
type diagCache struct {
	mu sync.Mutex
	// text and enc are what the entries were converted for.
	text       []byte
	enc        exchange.Encoding
	byOffset   map[offsetKey][]*diagEntry
	byPosition map[diagKey][]*diagEntry
}

type diagEntry struct {
	d    exchange.Diagnostic
	pd   protocol.Diagnostic
	json []byte
}

// offsetKey and diagKey find the candidates for reuse; sameFinding and
// sameDiagnostic decide.
type offsetKey struct {
	rng           exchange.Range
	code, message string
}

type diagKey struct {
	rng           protocol.Range
	code, message string
}

func keyOf(pd *protocol.Diagnostic) diagKey {
	code, _ := pd.Code.(string)
	return diagKey{rng: pd.Range, code: code, message: pd.Message}
}

// encode returns the whole publishDiagnostics notification for ds, found
// in doc, without HTML escaping (its messages and fix texts quote code,
// full of < > and &), as parts to write one after the other.
func (c *diagCache) encode(uri protocol.DocumentURI, version int32, doc *exchange.Document, conv Converter, ds []exchange.Diagnostic) ([][]byte, error) {
	text := doc.Src
	c.mu.Lock()
	oldText, oldEnc, byOffset, byPosition := c.text, c.enc, c.byOffset, c.byPosition
	c.mu.Unlock()
	// A position depends on the bytes before its offset and on the
	// character at it, up to utf8.UTFMax bytes.
	stable := -1
	if oldText != nil && oldEnc == conv.Enc {
		stable = unchangedPrefix(doc, oldText) - utf8.UTFMax
	}
	next := diagCache{text: text, enc: conv.Enc,
		byOffset: make(map[offsetKey][]*diagEntry, len(ds)), byPosition: make(map[diagKey][]*diagEntry, len(ds))}
	// Two parts a diagnostic, for the commas.
	parts := make([][]byte, 1, 2*len(ds)+2)
	for i := range ds {
		d := &ds[i]
		ok := offsetKey{rng: d.Range, code: d.Code, message: d.Message}
		e, err := reuse(byOffset[ok], byPosition, d, stable, uri, conv)
		if err != nil {
			return nil, err
		}
		next.byOffset[ok] = append(next.byOffset[ok], e)
		pk := keyOf(&e.pd)
		next.byPosition[pk] = append(next.byPosition[pk], e)
		if i > 0 {
			parts = append(parts, comma)
		}
		parts = append(parts, e.json)
	}
	c.mu.Lock()
	c.text, c.enc, c.byOffset, c.byPosition = next.text, next.enc, next.byOffset, next.byPosition
	c.mu.Unlock()

	head := append([]byte(publishPrefix), `{"uri":`...)
	head, err := fastjson.Append(head, string(uri), 0)
	if err != nil {
		return nil, err
	}
	if version != 0 {
		head = append(head, `,"version":`...)
		head = strconv.AppendUint(head, uint64(uint32(version)), 10)
	}
	parts[0] = append(head, `,"diagnostics":[`...)
	return append(parts, []byte("]}}")), nil
}

var comma = []byte{','}

// reuse returns d's entry: the last publish's when d lies before stable
// and is among sameOffset, else d converted, with the last publish's
// encoding when one had the same protocol form.
func reuse(sameOffset []*diagEntry, byPosition map[diagKey][]*diagEntry, d *exchange.Diagnostic, stable int, uri protocol.DocumentURI, conv Converter) (*diagEntry, error) {
	if lastOffset(d) < stable {
		for _, e := range sameOffset {
			if sameFinding(&e.d, d) {
				return e, nil
			}
		}
	}
	e := &diagEntry{d: *d, pd: conv.Diagnostic(uri, d)}
	for _, old := range byPosition[keyOf(&e.pd)] {
		if sameDiagnostic(&old.pd, &e.pd) {
			e.json = old.json
			return e, nil
		}
	}
	var err error
	if e.json, err = fastjson.Append(nil, &e.pd, 0); err != nil {
		return nil, fmt.Errorf("diagnostic %q at %v: %w", e.pd.Message, e.pd.Range, err)
	}
	return e, nil
}

// unchangedPrefix returns how many bytes doc's text starts with as old
// does: told by the parse when doc is an edit of old, which on a large
// review saves comparing megabytes per keystroke.
func unchangedPrefix(doc *exchange.Document, old []byte) int {
	if ch, ok := doc.ChangeFrom(old); ok {
		return ch.Prefix
	}
	return exchange.CommonPrefix(old, doc.Src)
}

// lastOffset returns the largest offset d's protocol form depends on.
func lastOffset(d *exchange.Diagnostic) int {
	last := d.Range.End
	for _, r := range d.Related {
		last = max(last, r.Range.End)
	}
	for _, f := range d.Fixes {
		for _, e := range f.Edits {
			last = max(last, e.End)
		}
	}
	return last
}

// sameFinding reports whether a and b have the same protocol form when
// their offsets have the same positions: every field Diagnostic reads.
func sameFinding(a, b *exchange.Diagnostic) bool {
	return a.Range == b.Range && a.Severity == b.Severity && a.Code == b.Code && a.Message == b.Message &&
		a.Unnecessary == b.Unnecessary && a.Reason == b.Reason && slices.Equal(a.Related, b.Related) &&
		slices.EqualFunc(a.Fixes, b.Fixes, func(x, y exchange.Fix) bool {
			return x.Title == y.Title && x.Preferred == y.Preferred && x.Safe == y.Safe && slices.Equal(x.Edits, y.Edits)
		})
}

// sameDiagnostic reports whether a and b encode to the same JSON. It
// knows every field this package sets, Data included.
func sameDiagnostic(a, b *protocol.Diagnostic) bool {
	if a.Range != b.Range || a.Severity != b.Severity || a.Code != b.Code || a.Source != b.Source ||
		a.Message != b.Message || a.CodeDescription != nil || b.CodeDescription != nil ||
		!slices.Equal(a.Tags, b.Tags) || !slices.Equal(a.RelatedInformation, b.RelatedInformation) {
		return false
	}
	switch da := a.Data.(type) {
	case nil:
		return b.Data == nil
	case DiagnosticData:
		db, ok := b.Data.(DiagnosticData)
		return ok && da.Reason == db.Reason && slices.EqualFunc(da.Fixes, db.Fixes, func(x, y FixData) bool {
			return x.Title == y.Title && x.IsPreferred == y.IsPreferred && x.FixAll == y.FixAll && slices.Equal(x.Edits, y.Edits)
		})
	}
	return false
}

func visibleDiagnostics(ds []exchange.Diagnostic, disabled []string) []exchange.Diagnostic {
	if len(disabled) == 0 {
		return ds
	}
	out := make([]exchange.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !slices.Contains(disabled, d.Code) {
			out = append(out, d)
		}
	}
	return out
}
