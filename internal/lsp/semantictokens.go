package lsp

import (
	"context"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func semanticTokensFull(ctx context.Context, s *Server, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	conv, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	toks := an.Tokens()
	return &protocol.SemanticTokens{Data: encodeTokens(conv, toks)}, nil
}

func semanticTokensRange(ctx context.Context, s *Server, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	conv, an, span, err := fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: encodeTokens(conv, tokensIn(an.Tokens(), span))}, nil
}

// tokensIn returns the tokens that overlap span; tokens are sorted and
// disjoint, so two binary searches find them.
func tokensIn(toks []anchor.Token, span exchange.Range) []anchor.Token {
	lo := sort.Search(len(toks), func(i int) bool { return toks[i].End > span.Start })
	hi := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= span.End })
	return toks[lo:max(lo, hi)]
}

// encodeTokens writes tokens in the protocol's relative form. A token
// never spans a source line: a JSON string holds no raw line break.
func encodeTokens(conv Converter, toks []anchor.Token) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var prevLine, prevChar uint32
	for _, t := range toks {
		start := conv.Position(t.Start)
		width := uint32(conv.M.Width(t.Start, t.End, conv.Enc))
		if width == 0 {
			continue
		}
		deltaChar := start.Character
		if start.Line == prevLine {
			deltaChar -= prevChar
		}
		data = append(data, start.Line-prevLine, deltaChar, width, uint32(t.Kind), 0)
		prevLine, prevChar = start.Line, start.Character
	}
	return data
}
