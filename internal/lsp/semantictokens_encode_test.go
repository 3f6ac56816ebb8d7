package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// plainTokens encodes toks the plain way, the reference of the encoder:
// each start looked up on its own.
func plainTokens(conv Converter, toks []features.Token) []uint32 {
	var data []uint32
	var prevLine, prevChar uint32
	for _, t := range toks {
		p := conv.Position(t.Start)
		width := uint32(conv.M.Width(t.Start, t.End, conv.Enc))
		if width == 0 {
			continue
		}
		deltaChar := p.Character
		if p.Line == prevLine {
			deltaChar -= prevChar
		}
		data = append(data, p.Line-prevLine, deltaChar, width, uint32(t.Kind), 0)
		prevLine, prevChar = p.Line, p.Character
	}
	return data
}

// TestEncodeAllTokens: the whole patch's tokens, encoded as they are
// classified into the reply, are those of Tokens encoded the plain way,
// in every encoding, on reviews with escapes, raw non-ASCII text, invalid
// bytes and every line terminator, and on generated ones; the reply is
// the one encodeTokenReply writes of them.
func TestEncodeAllTokens(t *testing.T) {
	reviews := testreviews.Golden(t)
	reviews["escaped"] = []byte(escapedReview)
	reviews["escaped, crlf"] = []byte(strings.ReplaceAll(escapedReview, "\n", "\r\n"))
	reviews["escaped, cr"] = []byte(strings.ReplaceAll(escapedReview, "\n", "\r"))
	reviews["raw and invalid"] = []byte(strings.NewReplacer(`\u00e9`, "é\xff", `\"😀\"`, `\"\xe4\xb8😀😀\ud83d\ude00\"`).Replace(escapedReview))
	reviews["generated"] = reviewgen.Generate(reviewgen.Config{Files: 7, DiffLines: 2000, Comments: 20, Seed: 5})
	for name, src := range reviews {
		an, err := reviewfile.Analyze(context.Background(), exchange.NewText(src), nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []exchange.Encoding{exchange.UTF16, exchange.UTF8, exchange.UTF32} {
			conv := Converter{M: an.Doc.Mapper(), Enc: enc}
			want := plainTokens(conv, features.Tokens(an.Index, an.Doc.Text))
			reply := encodeAllTokens(conv, an, "7")
			if got := numbers(reply); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, %v: got\n%v\nwant\n%v", name, enc, got, want)
			}
			if wantReply := encodeTokenReply("7", want); string(reply) != string(wantReply) {
				t.Fatalf("%s, %v: got reply\n%.200s\nwant\n%.200s", name, enc, reply, wantReply)
			}
			if len(an.Index.Files) > 1 {
				// An index that holds its files out of order: the tokens
				// are encoded sorted all the same.
				if got := numbers(encodeAllTokens(conv, reversedFiles(an), "7")); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s, %v, files reversed: got\n%v\nwant\n%v", name, enc, got, want)
				}
			}
		}
	}
}

// reversedFiles returns an with its index's files in reverse order.
func reversedFiles(an *anchor.Analysis) *anchor.Analysis {
	out, ix := *an, *an.Index
	ix.Files = slices.Clone(ix.Files)
	slices.Reverse(ix.Files)
	out.Index = &ix
	return &out
}

// TestEncodeTokenReply: the reply is what a number at a time with
// strconv writes, for numbers of every width, and numbers reads them
// back.
func TestEncodeTokenReply(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := []uint32{0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 65535, 99999, 100000, 999999, 1000000, math.MaxUint32}
	for range 2000 {
		data = append(data, uint32(r.IntN(120)), r.Uint32()>>r.IntN(32))
	}
	for _, d := range [][]uint32{nil, {}, {7}, {12}, data} {
		for _, id := range []string{"1", "123", `q"\`} {
			want := `{"resultId":` + strconv.Quote(id) + `,"data":[`
			for i, v := range d {
				if i > 0 {
					want += ","
				}
				want += strconv.FormatUint(uint64(v), 10)
			}
			want += "]}"
			got := encodeTokenReply(id, d)
			if string(got) != want {
				t.Fatalf("id %q, %d numbers: got\n%s\nwant\n%s", id, len(d), got, want)
			}
			if back := numbers(got); !slices.Equal(back, d) {
				t.Fatalf("id %q: numbers read back %d numbers, want the %d written", id, len(back), len(d))
			}
		}
	}
}

// BenchmarkEncodeAllTokens encodes the whole tokens of the 8 MB review
// and their reply, the work of a first full request, in UTF-16.
func BenchmarkEncodeAllTokens(b *testing.B) {
	an, err := reviewfile.Analyze(context.Background(), exchange.NewText(generatedReview()), nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	conv := Converter{M: an.Doc.Mapper(), Enc: exchange.UTF16}
	for b.Loop() {
		encodeAllTokens(conv, an, "1")
	}
}

// numbers reads back the numbers of an encoded full result.
func numbers(reply json.RawMessage) []uint32 {
	at := bytes.Index(reply, []byte(`"data":[`)) + len(`"data":[`)
	var out []uint32
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
