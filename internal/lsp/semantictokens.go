package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func init() {
	requests["textDocument/semanticTokens/full"] = request(semanticTokensFull)
	requests["textDocument/semanticTokens/range"] = request(semanticTokensRange)
}

func semanticTokensFull(ctx context.Context, s *Server, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	sn, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	toks := an.Index.Tokens(an.Doc.Src)
	return &protocol.SemanticTokens{Data: encodeTokens(Converter{M: an.Mapper, Enc: sn.enc}, toks)}, nil
}

func semanticTokensRange(ctx context.Context, s *Server, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	sn, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	conv := Converter{M: an.Mapper, Enc: sn.enc}
	span, err := conv.Span(p.Range)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: encodeTokens(conv, tokensIn(an.Index.Tokens(an.Doc.Src), span))}, nil
}

// tokensIn returns the tokens that overlap span.
func tokensIn(toks []anchor.Token, span exchange.Range) []anchor.Token {
	lo := 0
	for lo < len(toks) && toks[lo].End <= span.Start {
		lo++
	}
	hi := lo
	for hi < len(toks) && toks[hi].Start < span.End {
		hi++
	}
	return toks[lo:hi]
}

// encodeTokens writes tokens in the protocol's relative form. A token
// never spans a source line: a JSON string holds no raw line break.
func encodeTokens(conv Converter, toks []anchor.Token) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var prevLine, prevChar uint32
	for _, t := range toks {
		start, end := conv.Position(t.Start), conv.Position(t.End)
		if end.Line != start.Line || end.Character <= start.Character {
			continue
		}
		deltaChar := start.Character
		if start.Line == prevLine {
			deltaChar -= prevChar
		}
		data = append(data, start.Line-prevLine, deltaChar, end.Character-start.Character, uint32(t.Kind), 0)
		prevLine, prevChar = start.Line, start.Character
	}
	return data
}
