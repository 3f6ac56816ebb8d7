package lsp

import (
	"context"
	"encoding/json"
	"strconv"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// semanticTokensFull answers with the whole encoding, written from the
// patch for each request: a result is not kept (see tokenResult).
func semanticTokensFull(ctx context.Context, v *requestView, p *protocol.SemanticTokensParams) (json.RawMessage, error) {
	t, err := v.tokensOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return t.encode(), nil
}

// semanticTokensDelta answers "no change" to a client holding the result
// of the same patch, and any other with the whole encoding, as the
// protocol allows: the tokens of an earlier patch, which edits would be
// computed from, are not kept.
func semanticTokensDelta(ctx context.Context, v *requestView, p *protocol.SemanticTokensDeltaParams) (any, error) {
	t, err := v.tokensOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if t.id == p.PreviousResultID {
		return &protocol.SemanticTokensDelta{ResultID: t.id, Edits: []protocol.SemanticTokensEdit{}}, nil
	}
	return t.encode(), nil
}

// tokenResult names one result of a document's tokens: the patch it is
// of, and the id a client holding it sends back. The tokens themselves
// are written again for each request that wants them: they follow from
// the patch, which every version keeps, and writing them takes a tenth of
// a `check` of the same review (20 ms of the 8 MB review's), where keeping
// them would take 1.2 MB for as long as the patch is unchanged. Editors
// that ask for deltas, as they do after each keystroke, are answered from
// the id alone while the patch is unchanged.
type tokenResult struct {
	id string
	// patch is what the result is of.
	patch patchKey
}

// tokenRequest is what a tokens request answers from: a version's
// analysis, its converter, and the id of its result.
type tokenRequest struct {
	conv Converter
	an   *anchor.Analysis
	id   string
}

func (t tokenRequest) encode() json.RawMessage { return encodeAllTokens(t.conv, t.an, t.id) }

// tokensOf returns what the tokens of the request's version of uri are
// answered from.
func (v *requestView) tokensOf(ctx context.Context, uri protocol.DocumentURI) (tokenRequest, error) {
	sn, an, err := v.analysisOf(ctx, uri)
	if err != nil {
		return tokenRequest{}, err
	}
	conv := Converter{M: an.Doc.Mapper(), Enc: sn.enc}
	return tokenRequest{conv: conv, an: an, id: sn.cache.tokenID(patchKeyOf(conv, an.Doc), v.newResultID)}, nil
}

// newResultID returns an id no other tokens result of the session has,
// so that a client holding one of a closed document's never finds it
// again.
func (s *Server) newResultID() string {
	return strconv.FormatUint(s.resultIDs.Add(1), 10)
}

// tokenID returns the id of the tokens of the cache's version, whose
// patch is key: the prior result's when it is of the same patch, a new
// one otherwise.
func (c *versionCache) tokenID(key patchKey, newID func() string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil {
		if p := c.prior.tokens; p != nil && p.patch == key {
			c.tokens = p
		} else {
			c.tokens = &tokenResult{id: newID(), patch: key}
		}
	}
	return c.tokens.id
}

// encodeTokenReply encodes a full result.
func encodeTokenReply(id string, data []uint32) json.RawMessage {
	b := append(strconv.AppendQuote([]byte(`{"resultId":`), id), `,"data":[`...)
	for i, v := range data {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSmall(b, v)
	}
	return append(b, "]}"...)
}

// appendSmall appends v in decimal. Nearly every number of the tokens is
// a line step, a column step, a kind or a zero: one or two digits,
// written without a call.
func appendSmall(b []byte, v uint32) []byte {
	switch {
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	}
	return strconv.AppendUint(b, uint64(v), 10)
}

func semanticTokensRange(ctx context.Context, v *requestView, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	conv, an, span, err := v.fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: encodeTokens(conv, features.TokensIn(an.Index, an.Doc.Text, span))}, nil
}

// encodeAllTokens encodes the full result of the whole patch's tokens as
// they are classified, straight into the reply: no slice of the tokens,
// nor of their numbers, in between. In the rare index whose tokens do
// not come in source order, they are encoded again from Tokens, sorted.
func encodeAllTokens(conv Converter, an *anchor.Analysis, id string) json.RawMessage {
	ix, src := an.Index, an.Doc.Text
	e := newTokenEncoder(conv, 0)
	// A token of a review takes a dozen bytes or less: "1,6,42,2,0,".
	e.json = append(make([]byte, 0, 64+len(id)+12*ix.Patch.LineCount()), `{"resultId":`...)
	e.json = append(strconv.AppendQuote(e.json, id), `,"data":[`...)
	if !features.AllTokens(ix, src, e.add) {
		return encodeTokenReply(id, encodeTokens(conv, features.Tokens(ix, src)))
	}
	return append(e.json, "]}"...)
}

// encodeTokens writes tokens, in source order, in the protocol's relative
// form.
func encodeTokens(conv Converter, toks []features.Token) []uint32 {
	e := newTokenEncoder(conv, len(toks))
	for _, t := range toks {
		e.add(t)
	}
	return e.data
}

// tokenEncoder writes tokens in source order in the protocol's relative
// form: as numbers into data, or, once json is set, as JSON onto it.
// Their offsets ascend, so a
// cursor converts them, without a search of the line table for each.
type tokenEncoder struct {
	cur                exchange.Cursor
	conv               Converter
	data               []uint32
	json               []byte
	prevLine, prevChar uint32
}

func newTokenEncoder(conv Converter, n int) *tokenEncoder {
	return &tokenEncoder{cur: conv.M.Cursor(conv.Enc), conv: conv, data: make([]uint32, 0, 5*n)}
}

// add appends t. A token never spans a source line: a JSON string holds
// no raw line break.
func (e *tokenEncoder) add(t features.Token) {
	width := uint32(e.conv.M.Width(t.Start, t.End, e.conv.Enc))
	if width == 0 {
		return
	}
	start := e.cur.Position(t.Start)
	line, char := uint32(start.Line), uint32(start.Character)
	deltaChar := char
	if line == e.prevLine {
		deltaChar -= e.prevChar
	}
	if e.json == nil {
		e.data = append(e.data, line-e.prevLine, deltaChar, width, uint32(t.Kind), 0)
	} else {
		b := e.json
		if b[len(b)-1] != '[' { // after a number
			b = append(b, ',')
		}
		b = appendSmall(b, line-e.prevLine)
		b = appendSmall(append(b, ','), deltaChar)
		b = appendSmall(append(b, ','), width)
		e.json = append(appendSmall(append(b, ','), uint32(t.Kind)), ",0"...)
	}
	e.prevLine, e.prevChar = line, char
}
