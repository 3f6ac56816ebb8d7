package lsp

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
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
func (s *Server) publish(f *file, sn *snapshot, an *anchor.Analysis, gen uint64) {
	inTree, warmUp := s.worktreeDiagnostics(f, sn.uri, an)
	if warmUp != nil {
		defer s.spawn(warmUp)
	}
	found := append(slices.Clip(an.Diagnostics), inTree...)
	found = append(found, s.verdictDiagnostics(sn.ctx, sn.uri, an)...)
	found = append(found, s.branchDiagnostics(sn.uri, an)...)
	ds := features.VisibleDiagnostics(s.clientCaps().published(features.DismissedHints(an.Doc), found), s.currentSettings().Diagnostics.Disabled)
	parts, err := sn.cache.publishParts(sn.uri, sn.version, Converter{M: an.Doc.Mapper(), Enc: sn.enc}, ds)
	if err != nil {
		s.logf(protocol.MessageTypeError, "publishDiagnostics for %s version %d: %v", sn.uri, sn.version, err)
		return
	}
	s.post(sn.uri, &outgoing{f: f, sn: sn, gen: gen, parts: parts})
	s.sourcesChanged(false) // its comments on the source files
}

// encodedDiagnostics is a version's diagnostics as published, converted
// and encoded, found by their protocol form. The protocol sends the whole
// list every time, but an edit on a large review changes a few of its
// thousands of diagnostics, and typing in a comment moves those after it
// in bytes, not in positions: a diagnostic whose protocol form the last
// publish had is sent as encoded then, so that encoding follows the
// change, not the size of the review.
type encodedDiagnostics struct {
	enc    exchange.Encoding
	byForm map[diagKey][]diagEntry
	// encoded counts the diagnostics this publish encoded rather than
	// took over.
	encoded int
}

type diagEntry struct {
	pd   protocol.Diagnostic
	json []byte
}

// diagKey finds the candidates for reuse; sameDiagnostic decides.
type diagKey struct {
	rng           protocol.Range
	code, message string
}

func keyOf(pd *protocol.Diagnostic) diagKey {
	code, _ := pd.Code.(string)
	return diagKey{rng: pd.Range, code: code, message: pd.Message}
}

// publishParts returns the whole publishDiagnostics notification for ds,
// the diagnostics of the cache's version, without HTML escaping (their
// messages and fix texts quote code, full of < > and &), as parts to
// write one after the other. The encodings are kept for the next publish.
func (c *versionCache) publishParts(uri protocol.DocumentURI, version int32, conv Converter, ds []exchange.Diagnostic) ([][]byte, error) {
	c.mu.Lock()
	before := cmp.Or(c.diags, c.prior.diags)
	c.mu.Unlock()
	cur, parts, err := encodeDiagnostics(uri, version, conv, ds, before)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.diags, c.prior.diags = cur, nil
	c.mu.Unlock()
	return parts, nil
}

// encodeDiagnostics converts and encodes ds, taking each encoding from
// before when it holds one of the same protocol form.
func encodeDiagnostics(uri protocol.DocumentURI, version int32, conv Converter, ds []exchange.Diagnostic, before *encodedDiagnostics) (*encodedDiagnostics, [][]byte, error) {
	if before != nil && before.enc != conv.Enc {
		before = nil
	}
	cur := &encodedDiagnostics{enc: conv.Enc, byForm: make(map[diagKey][]diagEntry, len(ds))}
	conv = conv.withCursor() // ds are in the order of their offsets
	// Two parts a diagnostic, for the commas.
	parts := make([][]byte, 1, 2*len(ds)+2)
	for i := range ds {
		e := diagEntry{pd: conv.Diagnostic(uri, &ds[i])}
		key := keyOf(&e.pd)
		if before != nil {
			for _, old := range before.byForm[key] {
				if sameDiagnostic(&old.pd, &e.pd) {
					e.json = old.json
					break
				}
			}
		}
		if e.json == nil {
			var err error
			if e.json, err = fastjson.Append(nil, &e.pd, 0); err != nil {
				return nil, nil, fmt.Errorf("diagnostic %q at %v: %w", e.pd.Message, e.pd.Range, err)
			}
			cur.encoded++
		}
		cur.byForm[key] = append(cur.byForm[key], e)
		if i > 0 {
			parts = append(parts, comma)
		}
		parts = append(parts, e.json)
	}
	head := append([]byte(publishPrefix), `{"uri":`...)
	head, err := fastjson.Append(head, string(uri), 0)
	if err != nil {
		return nil, nil, err
	}
	if version != 0 {
		head = append(head, `,"version":`...)
		head = strconv.AppendUint(head, uint64(uint32(version)), 10)
	}
	parts[0] = append(head, `,"diagnostics":[`...)
	return cur, append(parts, []byte("]}}")), nil
}

var comma = []byte{','}

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
