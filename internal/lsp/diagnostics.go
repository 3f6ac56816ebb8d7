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
	ds := visibleDiagnostics(append(append(features.DismissedHints(an.Doc), an.Diagnostics...), s.worktreeDiagnostics(sn.uri, an)...), s.currentSettings().Diagnostics.Disabled)
	parts, err := f.diags.encode(sn.uri, sn.version, an.Doc, Converter{M: an.Mapper, Enc: sn.enc}, ds)
	if err != nil {
		s.logf(protocol.MessageTypeError, "publishDiagnostics for %s version %d: %v", sn.uri, sn.version, err)
		return
	}
	s.mu.Lock()
	if s.closed || !s.isLatest(f, sn) || f.out != nil && f.out.gen > gen {
		s.mu.Unlock()
		return
	}
	f.out = &outgoing{sn: sn, gen: gen, parts: parts, activity: s.activity}
	s.mu.Unlock()
	s.sendOutgoing()
}

// outgoing is a publish decided and not yet sent. A file has one at most,
// the newest: while a client does not read (an editor busy for a few
// seconds), the publishes decided meanwhile replace one another instead
// of each waiting for the writer with its version's text and analysis,
// as each keystroke's did (hundreds of megabytes on a large review).
type outgoing struct {
	sn    *snapshot
	gen   uint64
	parts [][]byte
	// activity is the server's when the publish was decided: a pause
	// counts from there, not from the end of the write (see sendOutgoing).
	activity uint64
}

// sendOutgoing sends the files' outgoing publishes, unless pubMu is held:
// its holder sends them when it lets go (unlockPub).
//
// Once it has sent, it arms the collection in a pause (idle.go) from the
// activity when the earliest publish it sent was decided. An edit may come
// while a large publish is written (an editor reads the version at its
// head and types on), and its analysis then waits out the debounce: a
// pause counted from the end of the write would fall in that wait and
// mark both versions of the text.
func (s *Server) sendOutgoing() {
	for s.hasOutgoing() && s.pubMu.TryLock() {
		sent, since := false, uint64(0)
		for {
			parts, activity := s.takeOutgoing()
			if parts == nil {
				break
			}
			// Sent as encoded: jsonrpc2 would encode the params again,
			// with HTML escaping, which on a large review costs more
			// than building them.
			_ = s.tr.writeParts(parts...)
			if !sent || activity < since {
				since = activity
			}
			sent = true
		}
		s.pubMu.Unlock()
		if sent {
			s.armIdleCollect(since)
		}
	}
}

// unlockPub lets go of pubMu and sends what was decided while it was held.
func (s *Server) unlockPub() {
	s.pubMu.Unlock()
	s.sendOutgoing()
}

func (s *Server) hasOutgoing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.files {
		if f.out != nil {
			return true
		}
	}
	return false
}

// takeOutgoing returns the parts of an outgoing publish still worth
// sending, if any, and the activity when it was decided, and claims it
// (see file.claim): not its snapshot, which a write the client does not
// read would keep alive. s.pubMu must be held.
func (s *Server) takeOutgoing() ([][]byte, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.files {
		out := f.out
		if out == nil {
			continue
		}
		f.out = nil
		if !s.closed && s.isLatest(f, out.sn) && f.claim(out.gen) {
			return out.parts, out.activity
		}
	}
	return nil, 0
}

const publishPrefix = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":`

// diagCache keeps the diagnostics of a document's last publish, converted
// and encoded. The protocol sends the whole list every time, but an edit
// on a large review changes a few of its thousands of diagnostics: those
// wholly before the first changed byte keep their positions and are taken
// as they were, and so are those wholly on lines after the last changed
// one when the edit kept the number of lines (typing in a comment moves
// everything after it in bytes, not in positions). Any other whose
// protocol form did not change is copied as encoded, so that the cost of
// a publish follows the change, not the size of the review.
type diagCache struct {
	mu sync.Mutex
	// text, lines and enc are what the entries were converted for: the
	// text, its number of lines and the encoding.
	text       []byte
	lines      int
	enc        exchange.Encoding
	byOffset   map[offsetKey][]*diagEntry
	byPosition map[diagKey][]*diagEntry
	// converted counts the diagnostics the last encode converted.
	converted int
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
	oldText, oldLines, oldEnc, byOffset, byPosition := c.text, c.lines, c.enc, c.byOffset, c.byPosition
	c.mu.Unlock()
	u := unchanged{stable: -1, after: -1}
	if oldText != nil && oldEnc == conv.Enc {
		u = unchangedParts(doc, conv, oldText, oldLines)
	}
	next := diagCache{text: text, lines: conv.M.Lines(), enc: conv.Enc,
		byOffset: make(map[offsetKey][]*diagEntry, len(ds)), byPosition: make(map[diagKey][]*diagEntry, len(ds))}
	// Two parts a diagnostic, for the commas.
	parts := make([][]byte, 1, 2*len(ds)+2)
	for i := range ds {
		d := &ds[i]
		ok := offsetKey{rng: d.Range, code: d.Code, message: d.Message}
		e, converted, err := reuse(byOffset, byPosition, d, u, uri, conv)
		if err != nil {
			return nil, err
		}
		if converted {
			next.converted++
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
	c.text, c.lines, c.enc, c.byOffset, c.byPosition, c.converted = next.text, next.lines, next.enc, next.byOffset, next.byPosition, next.converted
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

// unchanged says which offsets keep their position from the last
// publish to this one: those below stable, and those at or after after
// (-1 for none), which moved by delta bytes. A diagnostic all of whose
// offsets do keeps its protocol form.
type unchanged struct {
	stable       int
	after, delta int
}

// keeps reports whether offset o of the new text keeps its position.
func (u unchanged) keeps(o int) bool { return o < u.stable || u.after >= 0 && o >= u.after }

// earlier returns where o, which keeps its position, was in the earlier
// text.
func (u unchanged) earlier(o int) int {
	if o < u.stable {
		return o
	}
	return o - u.delta
}

// holds reports whether every offset d's protocol form depends on keeps
// its position.
func (u unchanged) holds(d *exchange.Diagnostic) bool { return everyOffset(d, u.keeps) }

// before reports whether o is before the change: it kept its offset too.
func (u unchanged) before(o int) bool { return o < u.stable }

// unchangedParts finds them for doc, an edit of old, which had oldLines
// lines. A position depends on the bytes before its offset on its line
// and on the character at it, up to utf8.UTFMax bytes: an offset well
// before the first changed byte keeps its position, and so does one on a
// line that, with the line break before it, lies after the last changed
// byte, moved by the edit's length, as long as the edit added or removed
// no line. The change is told by the parse when doc is an edit of old,
// which on a large review saves comparing megabytes per keystroke;
// otherwise only the unchanged prefix is found.
func unchangedParts(doc *exchange.Document, conv Converter, old []byte, oldLines int) unchanged {
	ch, told := doc.ChangeFrom(old)
	if !told {
		return unchanged{stable: exchange.CommonPrefix(old, doc.Src) - utf8.UTFMax, after: -1}
	}
	u := unchanged{stable: ch.Prefix - utf8.UTFMax, after: -1, delta: len(doc.Src) - len(old)}
	if ch.Suffix == 0 || conv.M.Lines() != oldLines {
		return u
	}
	// The line after the one holding the suffix's first byte: the bytes
	// it is made of, and the line break before it, are all unchanged, so
	// it is a line of the earlier text too.
	next := conv.M.Line(len(doc.Src)-ch.Suffix) + 1
	if next < conv.M.Lines() {
		if at, err := conv.M.Offset(exchange.Position{Line: next}, conv.Enc); err == nil {
			u.after = at
		}
	}
	return u
}

// reuse returns d's entry: the last publish's when d keeps its protocol
// form (u) and was among its findings, else d converted (and converted
// set), with the last publish's encoding when one had the same protocol
// form.
func reuse(byOffset map[offsetKey][]*diagEntry, byPosition map[diagKey][]*diagEntry, d *exchange.Diagnostic, u unchanged, uri protocol.DocumentURI, conv Converter) (e *diagEntry, converted bool, err error) {
	if u.holds(d) {
		key := offsetKey{rng: exchange.Range{Start: u.earlier(d.Range.Start), End: u.earlier(d.Range.End)}, code: d.Code, message: d.Message}
		for _, old := range byOffset[key] {
			if sameFinding(&old.d, d, u.earlier) {
				if everyOffset(d, u.before) {
					return old, false, nil // nothing moved
				}
				return &diagEntry{d: *d, pd: old.pd, json: old.json}, false, nil
			}
		}
	}
	e = &diagEntry{d: *d, pd: conv.Diagnostic(uri, d)}
	for _, old := range byPosition[keyOf(&e.pd)] {
		if sameDiagnostic(&old.pd, &e.pd) {
			e.json = old.json
			return e, true, nil
		}
	}
	if e.json, err = fastjson.Append(nil, &e.pd, 0); err != nil {
		return nil, true, fmt.Errorf("diagnostic %q at %v: %w", e.pd.Message, e.pd.Range, err)
	}
	return e, true, nil
}

// everyOffset reports whether ok holds for every offset d's protocol form
// depends on: its range's, its related information's and its fixes'.
func everyOffset(d *exchange.Diagnostic, ok func(int) bool) bool {
	if !ok(d.Range.Start) || !ok(d.Range.End) {
		return false
	}
	for _, r := range d.Related {
		if !ok(r.Range.Start) || !ok(r.Range.End) {
			return false
		}
	}
	for _, f := range d.Fixes {
		for _, e := range f.Edits {
			if !ok(e.Start) || !ok(e.End) {
				return false
			}
		}
	}
	return true
}

// sameFinding reports whether b is a found again in a later text, where
// earlier maps its offsets back: every field Diagnostic reads is the
// same, at the same offsets mapped back. Their protocol forms are then
// the same when those offsets kept their positions.
func sameFinding(a, b *exchange.Diagnostic, earlier func(int) int) bool {
	same := func(x, y exchange.Range) bool { return x.Start == earlier(y.Start) && x.End == earlier(y.End) }
	return same(a.Range, b.Range) && a.Severity == b.Severity && a.Code == b.Code && a.Message == b.Message &&
		a.Unnecessary == b.Unnecessary && a.Reason == b.Reason &&
		slices.EqualFunc(a.Related, b.Related, func(x, y exchange.Related) bool { return same(x.Range, y.Range) && x.Message == y.Message }) &&
		slices.EqualFunc(a.Fixes, b.Fixes, func(x, y exchange.Fix) bool {
			return x.Title == y.Title && x.Preferred == y.Preferred && x.Safe == y.Safe &&
				slices.EqualFunc(x.Edits, y.Edits, func(p, q exchange.Edit) bool {
					return p.Start == earlier(q.Start) && p.End == earlier(q.End) && p.NewText == q.NewText
				})
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
