package lsp

import (
	"slices"
	"strconv"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
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
	body := encodeDiagnostics(sn.uri, sn.version, Converter{M: an.Doc.Mapper(), Enc: sn.enc}, ds)
	s.post(sn.uri, &outgoing{f: f, sn: sn, gen: gen, body: body})
	s.sourcesChanged(false) // its comments on the source files
}

// partSize is the size a publish's part is cut at. The publish of a
// large review is a megabyte, made on every keystroke; it is written a
// part at a time into one buffer, never whole (see encodeDiagnostics).
const partSize = 28 << 10

// encodeDiagnostics returns the body of the publishDiagnostics
// notification of ds, for the transport's WriteStream: each call writes
// it again, in parts of about partSize bytes in one buffer, what the
// protocol form of Converter.Diagnostics encodes to, byte for byte
// (TestEncodeDiagnosticsAsProtocol). A review's thousands of diagnostics
// are sent whole on every keystroke: building their protocol structs
// and reflecting over them took three to four times as long as writing
// them (1.5 ms for the 8 MB review's 731), and keeping their encoding
// until it was sent, the megabyte it is, made the heap's peak during an
// edit that much higher, and twice that with the collector's headroom.
func encodeDiagnostics(uri protocol.DocumentURI, version int32, conv Converter, ds []exchange.Diagnostic) func(emit func([]byte) error) error {
	return func(emit func([]byte) error) error {
		w := diagWriter{conv: conv.withCursor(), uri: string(uri)} // ds are in the order of their offsets
		b := make([]byte, 0, partSize+4<<10)
		b = jsontext.AppendQuote(append(b, publishPrefix+`{"uri":`...), w.uri)
		if version != 0 {
			b = strconv.AppendUint(append(b, `,"version":`...), uint64(uint32(version)), 10)
		}
		b = append(b, `,"diagnostics":[`...)
		for i := range ds {
			if i > 0 {
				b = append(b, ',')
			}
			b = w.diagnostic(b, &ds[i])
			if len(b) >= partSize {
				if err := emit(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
		return emit(append(b, "]}}"...))
	}
}

// diagWriter writes diagnostics of one document as JSON, its fields in
// the order and with the omissions of protocol.Diagnostic's encoding.
type diagWriter struct {
	conv Converter
	uri  string
}

func (w *diagWriter) diagnostic(b []byte, d *exchange.Diagnostic) []byte {
	b = w.rng(append(b, `{"range":`...), d.Range)
	if d.Severity != 0 {
		b = strconv.AppendInt(append(b, `,"severity":`...), int64(d.Severity), 10)
	}
	b = jsontext.AppendQuote(append(b, `,"code":`...), d.Code)
	b = jsontext.AppendQuote(append(b, `,"source":"lreview","message":`...), d.Message)
	if d.Unnecessary {
		b = append(b, `,"tags":[1]`...) // protocol.DiagnosticTagUnnecessary
	}
	if len(d.Related) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.Related {
			if i > 0 {
				b = append(b, ',')
			}
			b = w.related(b, r)
		}
		b = append(b, ']')
	}
	if d.Reason != "" || len(d.Fixes) > 0 {
		b = w.data(append(b, `,"data":{`...), d)
	}
	return append(b, '}')
}

// related writes one related information: a range of the review, or
// lines of a source file (sourceRelated).
func (w *diagWriter) related(b []byte, r exchange.Related) []byte {
	b = append(b, `{"location":{"uri":`...)
	if r.File != "" {
		src := sourceRelated(r)
		b = jsontext.AppendQuote(b, string(src.Location.URI))
		b = appendRange(append(b, `,"range":`...), src.Location.Range)
	} else {
		b = w.rng(append(jsontext.AppendQuote(b, w.uri), `,"range":`...), r.Range)
	}
	return append(jsontext.AppendQuote(append(b, `},"message":`...), r.Message), '}')
}

// data writes the members of DiagnosticData after its opening brace.
func (w *diagWriter) data(b []byte, d *exchange.Diagnostic) []byte {
	if d.Reason != "" {
		b = jsontext.AppendQuote(append(b, `"reason":`...), d.Reason)
	}
	if len(d.Fixes) > 0 {
		if d.Reason != "" {
			b = append(b, ',')
		}
		b = append(b, `"fixes":[`...)
		for i := range d.Fixes {
			if i > 0 {
				b = append(b, ',')
			}
			b = w.fix(b, &d.Fixes[i])
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// fix writes one FixData.
func (w *diagWriter) fix(b []byte, f *exchange.Fix) []byte {
	b = jsontext.AppendQuote(append(b, `{"title":`...), f.Title)
	if f.Preferred {
		b = append(b, `,"isPreferred":true`...)
	}
	if f.Safe {
		b = append(b, `,"fixAll":true`...)
	}
	b = append(b, `,"edits":[`...)
	for i, e := range f.Edits {
		if i > 0 {
			b = append(b, ',')
		}
		b = w.rng(append(b, `{"range":`...), exchange.Range{Start: e.Start, End: e.End})
		b = append(jsontext.AppendQuote(append(b, `,"newText":`...), e.NewText), '}')
	}
	return append(b, "]}"...)
}

func (w *diagWriter) rng(b []byte, r exchange.Range) []byte {
	return appendRange(b, w.conv.Range(r))
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = appendPosition(append(b, `{"start":`...), r.Start)
	return append(appendPosition(append(b, `,"end":`...), r.End), '}')
}

func appendPosition(b []byte, p protocol.Position) []byte {
	b = strconv.AppendUint(append(b, `{"line":`...), uint64(p.Line), 10)
	return append(strconv.AppendUint(append(b, `,"character":`...), uint64(p.Character), 10), '}')
}
