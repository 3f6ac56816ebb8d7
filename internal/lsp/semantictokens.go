package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// semanticTokensFull answers with the whole encoding, already in JSON:
// it depends on the patch alone, so an edit in a comment reuses the one
// sent before, and its id, as they are.
func semanticTokensFull(ctx context.Context, v *requestView, p *protocol.SemanticTokensParams) (json.RawMessage, error) {
	res, _, err := v.tokensOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return res.reply, nil
}

// semanticTokensDelta answers with the edits from the result the client
// holds to the current one; a client that names a result the server no
// longer has gets the whole encoding, as the protocol allows.
func semanticTokensDelta(ctx context.Context, v *requestView, p *protocol.SemanticTokensDeltaParams) (any, error) {
	res, prev, err := v.tokensOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	switch {
	case res.id == p.PreviousResultID:
		return &protocol.SemanticTokensDelta{ResultID: res.id, Edits: []protocol.SemanticTokensEdit{}}, nil
	case prev != nil && prev.id == p.PreviousResultID:
		return &protocol.SemanticTokensDelta{ResultID: res.id, Edits: tokenEdits(numbers(prev.reply), numbers(res.reply))}, nil
	}
	return res.reply, nil
}

// tokenEdits is the one edit that turns old into cur: what lies between
// their common prefix and common suffix.
func tokenEdits(old, cur []uint32) []protocol.SemanticTokensEdit {
	pre := 0
	for pre < len(old) && pre < len(cur) && old[pre] == cur[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(cur)-pre && old[len(old)-1-suf] == cur[len(cur)-1-suf] {
		suf++
	}
	if pre == len(old) && pre == len(cur) {
		return []protocol.SemanticTokensEdit{}
	}
	return []protocol.SemanticTokensEdit{{
		Start:       uint32(pre),
		DeleteCount: uint32(len(old) - pre - suf),
		Data:        slices.Clone(cur[pre : len(cur)-suf]),
	}}
}

// tokenResult is one encoding of a document's tokens.
type tokenResult struct {
	id    string
	reply json.RawMessage // {"resultId": id, "data": [...]}
	// patch is what the result was made for.
	patch patchKey
}

// tokensOf returns the tokens of the request's version of uri, and the
// newest result made before them for an earlier version (nil if none),
// which a delta starts from.
func (v *requestView) tokensOf(ctx context.Context, uri protocol.DocumentURI) (cur, prev *tokenResult, err error) {
	sn, an, err := v.analysisOf(ctx, uri)
	if err != nil {
		return nil, nil, err
	}
	cur, prev = sn.cache.semanticTokens(Converter{M: an.Doc.Mapper(), Enc: sn.enc}, an, v.newResultID)
	return cur, prev, nil
}

// newResultID returns an id no other tokens result of the session has,
// so that a client holding one of a closed document's never finds it
// again.
func (s *Server) newResultID() string {
	return strconv.FormatUint(s.resultIDs.Add(1), 10)
}

// semanticTokens returns the tokens of the cache's version, an, making
// them unless the prior result was made for the same patch, and that
// prior result. They are made outside the lock, which the next version's
// cache takes to start (next): two requests at once may both make them,
// and the first kept is the one both answer.
func (c *versionCache) semanticTokens(conv Converter, an *anchor.Analysis, newID func() string) (cur, prev *tokenResult) {
	c.mu.Lock()
	cur, prev = c.tokens, c.prior.tokens
	c.mu.Unlock()
	if cur != nil {
		return cur, prev
	}
	if key := patchKeyOf(conv, an.Doc); prev != nil && prev.patch == key {
		cur = prev
	} else {
		id := newID()
		cur = &tokenResult{id: id, reply: encodeAllTokens(conv, an, id), patch: key}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil {
		c.tokens = cur
	}
	return c.tokens, prev
}

// encodeTokenReply encodes a full result. The cache keeps it for as long
// as the patch does not change, so it is made at its size, counted first:
// room for the widest numbers would be several times what a review's
// small relative numbers take, and a copy cut to size as much again to
// write and collect.
func encodeTokenReply(id string, data []uint32) json.RawMessage {
	size := len(`{"resultId":,"data":[]}`) + len(strconv.Quote(id)) + max(len(data)-1, 0) // the commas
	for _, v := range data {
		size += digits(v)
	}
	b := make([]byte, 0, size)
	b = append(b, `{"resultId":`...)
	b = strconv.AppendQuote(b, id)
	b = append(b, `,"data":[`...)
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

// numbers reads back the numbers of an encoded full result: only a delta
// between two versions of the patch needs them, so the cache does not
// keep them beside the reply.
func numbers(reply json.RawMessage) []uint32 {
	at := bytes.Index(reply, []byte(`"data":[`)) + len(`"data":[`)
	out := make([]uint32, 0, bytes.Count(reply[at:], []byte{','})+1)
	var v uint32
	inNumber := false
	for _, c := range reply[at:] {
		switch {
		case c >= '0' && c <= '9':
			v, inNumber = v*10+uint32(c-'0'), true
		case inNumber:
			out, v, inNumber = append(out, v), 0, false
		}
	}
	return out
}

// digits returns the number of decimal digits of v.
func digits(v uint32) int {
	n := 1
	for ; v >= 100; v /= 100 {
		n += 2
	}
	if v >= 10 {
		n++
	}
	return n
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
// nor of their numbers, in between (the delta that needs the numbers
// reads them back, see numbers). In the rare index whose
// tokens do not come in source order, they are encoded again from
// Tokens, sorted.
func encodeAllTokens(conv Converter, an *anchor.Analysis, id string) json.RawMessage {
	ix, src := an.Index, an.Doc.Text
	e := newTokenEncoder(conv, 0)
	// A token of a review takes a dozen bytes or less: "1,6,42,2,0,".
	e.json = append(make([]byte, 0, 64+len(id)+12*ix.Patch.LineCount()), `{"resultId":`...)
	e.json = append(strconv.AppendQuote(e.json, id), `,"data":[`...)
	if !features.AllTokens(ix, src, e.add) {
		return encodeTokenReply(id, encodeTokens(conv, features.Tokens(ix, src)))
	}
	b := append(e.json, "]}"...)
	if cap(b)-len(b) > len(b)/8 {
		return bytes.Clone(b) // the cache keeps it
	}
	return b
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
