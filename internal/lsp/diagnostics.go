package lsp

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

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
	pds := Converter{M: an.Mapper, Enc: sn.enc}.Diagnostics(sn.uri, ds)
	body, err := f.diags.encode(sn.uri, sn.version, pds)
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
	_ = s.tr.writeFrame(body)
}

const publishPrefix = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":`

// diagCache keeps the encoded diagnostics of a document's last publish.
// The protocol sends the whole list every time, but an edit on a large
// review changes a few of its thousands of diagnostics: the others are
// copied as encoded, so that the cost of a publish follows the change,
// not the size of the review.
type diagCache struct {
	mu      sync.Mutex
	entries map[diagKey][]encodedDiagnostic
}

// diagKey finds the candidates for reuse; sameDiagnostic decides.
type diagKey struct {
	rng           protocol.Range
	code, message string
}

type encodedDiagnostic struct {
	pd   protocol.Diagnostic
	json []byte
}

func keyOf(pd *protocol.Diagnostic) diagKey {
	code, _ := pd.Code.(string)
	return diagKey{rng: pd.Range, code: code, message: pd.Message}
}

// encode returns the whole publishDiagnostics notification, without HTML
// escaping: its messages and fix texts quote code, full of < > and &.
func (c *diagCache) encode(uri protocol.DocumentURI, version int32, pds []protocol.Diagnostic) ([]byte, error) {
	c.mu.Lock()
	old := c.entries
	c.mu.Unlock()
	next := make(map[diagKey][]encodedDiagnostic, len(pds))
	pieces := make([][]byte, len(pds))
	size := 0
	for i := range pds {
		pd := &pds[i]
		k := keyOf(pd)
		var piece []byte
		for _, e := range old[k] {
			if sameDiagnostic(&e.pd, pd) {
				piece = e.json
				break
			}
		}
		if piece == nil {
			var err error
			if piece, err = fastjson.Append(nil, pd, 0); err != nil {
				return nil, fmt.Errorf("diagnostic %q at %v: %w", pd.Message, pd.Range, err)
			}
		}
		next[k] = append(next[k], encodedDiagnostic{pd: *pd, json: piece})
		pieces[i] = piece
		size += len(piece) + 1
	}
	c.mu.Lock()
	c.entries = next
	c.mu.Unlock()

	body := make([]byte, 0, len(publishPrefix)+len(uri)+size+64)
	body = append(body, publishPrefix...)
	body = append(body, `{"uri":`...)
	body, err := fastjson.Append(body, string(uri), 0)
	if err != nil {
		return nil, err
	}
	if version != 0 {
		body = append(body, `,"version":`...)
		body = strconv.AppendUint(body, uint64(uint32(version)), 10)
	}
	body = append(body, `,"diagnostics":[`...)
	for i, piece := range pieces {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, piece...)
	}
	return append(body, "]}}"...), nil
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
