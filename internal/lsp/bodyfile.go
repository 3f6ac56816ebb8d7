package lsp

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// A body edited as Markdown in an editor with no plugin to open one:
// Helix. The code action "Edit c1's body as Markdown" has the server
// write the body, unescaped, to a file of its own (c1-body.md in a
// directory of the session's, removed when it ends) and show it
// (window/showDocument); when the person saves that file, the server
// reads it (its poller looks every Options.Poll, watch.go) and writes the body back into
// the review as lreview.setBody does, through workspace/applyEdit. The
// file ends with one line break more than the body, which editors add
// on saving anyway, and which is not part of the body.
//
// A save goes back only to the body the file was opened for: the same
// comment, the same reply of it written by the same author at the same
// time, still holding the text the file was opened with (or last wrote
// back). A reply removed, or a body changed in the review meanwhile, is
// not overwritten: the save is refused, and the person told why (a
// reply's index alone would send it to whichever reply took its place).
//
// The directory is named after the server's process id, so that the
// next server clears what a killed one left (clearStaleBodyDirs).

// CommandOpenBody opens a body as a file: its arguments are the review's
// URI, the comment's name and the reply's index (-1: the comment's body).
const CommandOpenBody = "lreview.openBody"

// maxBodyFiles bounds the body files a session keeps watching.
const maxBodyFiles = 200

// bodyFiles are the session's body files.
type bodyFiles struct {
	mu sync.Mutex
	// offer: the client gets the "Edit … as Markdown" action (Helix);
	// set at initialize.
	offer atomic.Bool
	dir   string
	root  *os.Root
	files []*bodyFile
	seq   int
}

// bodyFile is one body opened as a file.
type bodyFile struct {
	name   string
	review protocol.DocumentURI
	// body is the body as the file was opened for it (who wrote it and
	// when), its text as last written or read; nl the line break the
	// file ends with beyond it.
	body features.Body
	nl   string
	// stamp is the file's as last read; seen, as last looked at: a new
	// stamp is read once two looks agree, so that a file an editor
	// truncates and then writes is not read between the two.
	stamp, seen fileStamp
}

// bodyFileActions offers the body at the cursor as a file, to a client
// that has no way of its own.
func (s *Server) bodyFileActions(req actionRequest, an *anchor.Analysis) []protocol.CodeAction {
	if !s.bodies.offer.Load() || !req.canShow || !req.wants(protocol.RefactorRewrite) {
		return nil
	}
	b, err := features.BodyAtOffset(an.Doc, req.span.Start)
	if err != nil {
		return nil
	}
	title := features.EditAsMarkdownTitle(b.Place)
	return []protocol.CodeAction{{Title: title, Kind: protocol.RefactorRewrite,
		Command: &protocol.Command{Title: title, Command: CommandOpenBody, Arguments: []any{req.uri, b.Place.Comment, b.Place.Reply}}}}
}

// openBody runs CommandOpenBody.
func openBody(ctx context.Context, v *requestView, args []any) (any, error) {
	var docURI protocol.DocumentURI
	var place features.BodyCursor
	if len(args) != 3 || remarshal(args[0], &docURI) != nil || remarshal(args[1], &place.Comment) != nil || remarshal(args[2], &place.Reply) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandOpenBody+" takes three arguments: the review's URI, the comment's name and the reply's index (-1 for the comment's body)")
	}
	_, an, err := v.fileAnalysis(ctx, docURI)
	if err != nil {
		return nil, err
	}
	b, err := features.BodyOf(an.Doc, place)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: no body to edit: %v", docURI, err))
	}
	abs, err := v.writeBodyFile(docURI, b)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("the body of %s could not be written to a file: %v", place.Comment, err))
	}
	loc := protocol.Location{URI: protocol.DocumentURI(fileuri.FromPath(abs))}
	return executeCommand(ctx, v, &protocol.ExecuteCommandParams{Command: CommandShow, Arguments: []any{loc}})
}

// writeBodyFile writes body b of the review to a new file of the
// session's directory, and watches it.
func (s *Server) writeBodyFile(review protocol.DocumentURI, b features.Body) (string, error) {
	abs, err := s.bodies.add(review, b)
	s.startPolling() // the poller looks at the body files (watch.go)
	return abs, err
}

// add writes body b to a new file.
func (bf *bodyFiles) add(review protocol.DocumentURI, b features.Body) (abs string, err error) {
	bf.mu.Lock()
	defer bf.mu.Unlock()
	if len(bf.files) >= maxBodyFiles {
		return "", fmt.Errorf("%d body files are open already", maxBodyFiles)
	}
	if bf.root == nil {
		dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", bodyDirPrefix, os.Getpid()))
		if err != nil {
			return "", err
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return "", err
		}
		bf.dir, bf.root = dir, root
	}
	bf.seq++
	what := "body"
	if b.Place.Reply >= 0 {
		what = fmt.Sprintf("reply%d", b.Place.Reply+1)
	}
	name := fmt.Sprintf("%d-%s-%s.md", bf.seq, fileSafe(b.Place.Comment), what)
	nl := "\n"
	if strings.Contains(b.Text, "\r\n") {
		nl = "\r\n"
	}
	if err := filewrite.CreateIn(bf.root, name, []byte(b.Text+nl)); err != nil {
		return "", err
	}
	f := &bodyFile{name: name, review: review, body: b, nl: nl}
	if fi, err := bf.root.Stat(name); err == nil {
		f.stamp = stampOf(fi)
	}
	bf.files = append(bf.files, f)
	return bf.dir + string(os.PathSeparator) + name, nil
}

// fileSafe keeps the letters, digits, '-' and '_' of a comment's name.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, name)
}

// savedBody is a body file whose text changed.
type savedBody struct {
	f    *bodyFile
	text string
}

// savedBodies reads the body files whose stamp changed and then held
// for one look.
func (s *Server) savedBodies() []savedBody {
	bf := &s.bodies
	bf.mu.Lock()
	defer bf.mu.Unlock()
	var out []savedBody
	for _, f := range bf.files {
		fi, err := bf.root.Stat(f.name)
		if err != nil {
			continue
		}
		now := stampOf(fi)
		if now == f.stamp || now != f.seen {
			f.seen = now
			continue
		}
		f.stamp = now
		data, err := filewrite.ReadFileIn(bf.root, f.name)
		if err != nil {
			continue
		}
		text := strings.TrimSuffix(string(data), f.nl)
		if text != f.body.Text {
			out = append(out, savedBody{f: f, text: text})
		}
	}
	return out
}

// writeBack writes a saved body into its review, as lreview.setBody does.
func (s *Server) writeBack(b savedBody) {
	sn := s.latestSnapshot(b.f.review)
	if sn == nil {
		return // the review was closed
	}
	an, err := sn.analysis(s.bg)
	if err != nil {
		return
	}
	s.bodies.mu.Lock()
	was := b.f.body
	s.bodies.mu.Unlock()
	comment := was.Place.Comment
	if why := features.BodyMoved(an.Doc, was); why != "" {
		s.warn("the body file of %s was not written back into %s: %s; nothing written (open the body again)", comment, b.f.review, why)
		return
	}
	edits, err := features.SetBodyEdit(an.Doc, was.Place, b.text)
	if err != nil {
		s.warn("the body of %s was not written back into %s: %v", comment, b.f.review, err)
		return
	}
	if len(edits) > 0 {
		conv := Converter{M: an.Doc.Mapper(), Enc: sn.enc}
		edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{b.f.review: conv.TextEdits(edits)}}
		if err := s.askApply(s.bg, "lreview: "+comment+"'s body", edit, jsonrpc2.InternalError, fmt.Sprintf("the body of %s to %s", comment, b.f.review)); err != nil {
			s.logf(protocol.MessageTypeWarning, "writing the body of %s back into %s: %v", comment, b.f.review, err)
			return
		}
	}
	s.bodies.mu.Lock()
	b.f.body.Text = b.text
	s.bodies.mu.Unlock()
}

// warn tells the person, and the log, that something they asked for was
// not done.
func (s *Server) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logf(protocol.MessageTypeWarning, "%s", msg)
	if s.conn != nil {
		_ = s.conn.Notify(context.Background(), "window/showMessage", &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
	}
}

// removeDir removes the body files' directory, once the session ends.
func (bf *bodyFiles) removeDir() {
	bf.mu.Lock()
	defer bf.mu.Unlock()
	if bf.root != nil {
		_ = bf.root.Close()
		_ = os.RemoveAll(bf.dir)
	}
}

// bodyDirPrefix begins the name of a session's body directory, followed
// by the server's process id.
const bodyDirPrefix = "lreview-bodies-"

// clearStaleBodyDirs removes the body directories in the temporary
// directory whose server is no longer running (killed: a server that
// exits removes its own), through an os.Root of it. A directory of a
// running process, or not one's own, stays.
func clearStaleBodyDirs() {
	tmp, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return
	}
	defer tmp.Close()
	f, err := tmp.Open(".")
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, bodyDirPrefix)
		digits, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processRunning(pid) {
			continue
		}
		if fi, err := tmp.Lstat(name); err != nil || !fi.IsDir() || !ownedByMe(fi) {
			continue
		}
		_ = tmp.RemoveAll(name)
	}
}
