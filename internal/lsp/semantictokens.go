package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"weak"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// semanticTokensFull answers with the whole encoding, already in JSON:
// it depends on the patch alone, so an edit in a comment reuses the one
// sent before, and its id, as they are.
func semanticTokensFull(ctx context.Context, s *Server, p *protocol.SemanticTokensParams) (json.RawMessage, error) {
	res, _, err := s.tokensOf(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return res.reply, nil
}

// semanticTokensDelta answers with the edits from the result the client
// holds to the current one; a client that names a result the server no
// longer has gets the whole encoding, as the protocol allows.
func semanticTokensDelta(ctx context.Context, s *Server, p *protocol.SemanticTokensDeltaParams) (any, error) {
	res, prev, err := s.tokensOf(ctx, p.TextDocument.URI)
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

// tokenCache is a document's last semantic tokens result.
type tokenCache struct {
	mu   sync.Mutex
	seq  int
	last *tokenResult
}

// tokenResult is one encoding of a document's tokens.
type tokenResult struct {
	id    string
	reply json.RawMessage // {"resultId": id, "data": [...]}
	// place is the patch the result was computed from.
	place patchPlace
}

// tokensOf returns the tokens of the request's version of uri, and the
// result sent before it (nil if none).
func (s *Server) tokensOf(ctx context.Context, uri protocol.DocumentURI) (cur, prev *tokenResult, err error) {
	conv, an, err := fileAnalysis(ctx, uri)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	f := s.files[uri]
	s.mu.Unlock()
	c := &tokenCache{} // the file closed meanwhile: nothing to reuse
	if f != nil {
		c = &f.tokens
	}
	return c.update(conv, an)
}

// update returns the tokens of an, reusing the last result when an's
// patch is that result's, at the same position, and makes them the last
// result.
func (c *tokenCache) update(conv Converter, an *Analysis) (cur, prev *tokenResult, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev = c.last
	place := placeOf(conv, an.Doc)
	if prev != nil && prev.place.serves(an.Doc, place) {
		if prev.place != place {
			moved := *prev
			moved.place = place
			c.last = &moved
		}
		return c.last, prev, nil
	}
	c.seq++
	id := strconv.Itoa(c.seq)
	cur = &tokenResult{id: id, reply: encodeAllTokens(conv, an, id), place: place}
	c.last = cur
	return cur, prev, nil
}

// patchPlace says which patch, where, a result that depends on the patch
// alone (tokens, the outline's files and hunks) was computed for. The
// patch node is held weakly, so that a result kept for later keeps no
// earlier version alive.
type patchPlace struct {
	patch weak.Pointer[exchange.Node]
	at    protocol.Position // where the patch began
	enc   exchange.Encoding
}

func placeOf(conv Converter, doc *exchange.Document) patchPlace {
	p := patchPlace{enc: conv.Enc}
	if node := doc.Review.Patch.Node; node != nil {
		p.patch, p.at = weak.Make(node), conv.Position(node.Start)
	}
	return p
}

// serves reports whether a result computed at p holds for doc, whose
// place is cur: doc's patch is p's, or was taken from it, so it is spelt
// the same, and it begins at the same position. A result in positions
// then holds whatever the patch's offset: every position in it follows
// from where it begins and its own bytes. An edit before the patch on a
// line of its own (the summary, say) moves it in bytes, not in lines;
// one that keeps its length can still move it down a line.
func (p patchPlace) serves(doc *exchange.Document, cur patchPlace) bool {
	node := p.patch.Value()
	if node == nil || p.enc != cur.enc || p.at != cur.at {
		return false
	}
	if doc.Review.Patch.Node == node {
		return true
	}
	from, _ := doc.PatchSource()
	return from == node
}

// encodeTokenReply encodes a full result. The cache keeps it for as long
// as the patch does not change, so it is made at its size, counted first:
// room for the widest numbers (7 bytes each) was three times what a
// review's small relative numbers take, 2.6 MB on the 8 MB review, and a
// copy cut to size was as much again to write and collect.
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
// keep 4 bytes a number (2 MB on the 8 MB review) beside the reply.
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

func semanticTokensRange(ctx context.Context, s *Server, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	conv, an, span, err := fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: encodeTokens(conv, features.TokensIn(an.Index, an.Doc.Src, span))}, nil
}

// encodeAllTokens encodes the full result of the whole patch's tokens as
// they are classified, straight into the reply: no slice of 100,000
// tokens, nor of their 500,000 numbers, in between (the delta that needs
// the numbers reads them back, see numbers). In the rare index whose
// tokens do not come in source order, they are encoded again from
// Tokens, sorted.
func encodeAllTokens(conv Converter, an *Analysis, id string) json.RawMessage {
	ix, src := an.Index, an.Doc.Src
	e := newTokenEncoder(conv, 0)
	// About 11 bytes a token on a review: "1,6,42,2,0,".
	e.json = append(make([]byte, 0, 64+len(id)+12*len(ix.Patch.Lines)), `{"resultId":`...)
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
