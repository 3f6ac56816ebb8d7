package lsp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/metamodel"
	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// metaModelPath is the official LSP 3.17 meta model: test data nobody here
// wrote, read at test time and never committed (refdata says where; ""
// when it is nowhere).
var metaModelPath, _ = refdata.Path(metaModelFile)

// metaModelFile is the meta model's name among the reference data.
const metaModelFile = "data/lsp-metamodel/metaModel.json"

// loadMetaModel reads the meta model once for the whole test binary.
var loadMetaModel = sync.OnceValues(func() (*metamodel.Model, error) {
	if _, err := os.Stat(metaModelPath); err != nil {
		return nil, err
	}
	return metamodel.Load(metaModelPath)
})

// metaModel returns the meta model, or nil when it is absent; absent under
// CI, or unreadable, is an error of the test.
func metaModel(t testing.TB) *metamodel.Model {
	t.Helper()
	m, err := loadMetaModel()
	switch {
	case err == nil:
		return m
	case os.IsNotExist(err) && os.Getenv("CI") == "":
		return nil
	}
	t.Fatalf("the LSP meta model: %v", err)
	return nil
}

// conformance validates every message a server sends to a test client
// against the meta model, and the rules the model's documentation and
// the client's capabilities add; a test fails with what it found.
type conformance struct {
	session *metamodel.Session
	mu      sync.Mutex
	// done is set once the test checked what was found: later messages
	// (the server shutting down) are not the test's.
	done       bool
	validated  int
	violations []string
}

// tapConformance makes c's server messages checked. Benchmarks are not:
// they time the server.
func tapConformance(t testing.TB, clientWrite, serverWrite io.WriteCloser) (io.WriteCloser, io.WriteCloser, *conformance) {
	m := metaModel(t)
	if _, bench := t.(*testing.B); bench || m == nil {
		return clientWrite, serverWrite, nil
	}
	conf := &conformance{session: m.NewSession()}
	t.Cleanup(func() {
		conf.mu.Lock()
		defer conf.mu.Unlock()
		conf.done = true
		t.Logf("conformance: %d server messages validated against the LSP %s meta model, %d violations", conf.validated, m.Version, len(conf.violations))
		for _, v := range distinct(conf.violations, 20) {
			t.Errorf("meta model violation: %s", v)
		}
	})
	return &frameTap{WriteCloser: clientWrite, frame: conf.session.FromClient, lost: conf.session.Lost},
		&frameTap{WriteCloser: serverWrite, frame: conf.fromServer, lost: conf.serverLost}, conf
}

func (conf *conformance) fromServer(body []byte) {
	c := conf.session.FromServer(body)
	conf.mu.Lock()
	defer conf.mu.Unlock()
	if conf.done {
		return
	}
	conf.validated++
	for _, v := range c.Violations {
		conf.violations = append(conf.violations, fmt.Sprintf("%s %s: %s", c.Kind, c.Method, v))
	}
}

// serverLost records that the server wrote bytes that are no frame.
func (conf *conformance) serverLost() {
	conf.mu.Lock()
	defer conf.mu.Unlock()
	if !conf.done {
		conf.violations = append(conf.violations, "the server wrote bytes that are not a Content-Length frame")
	}
}

// counts returns how many messages were validated and the violations.
func (conf *conformance) counts() (int, []string) {
	conf.mu.Lock()
	defer conf.mu.Unlock()
	return conf.validated, append([]string(nil), conf.violations...)
}

// frameTap hands each complete message body written to frame, then
// passes the bytes on: a request is noted before its answer can come. Bytes that are not a frame (a robustness test's)
// stop it reading frames: the stream can no longer be followed.
type frameTap struct {
	io.WriteCloser
	frame func(body []byte)
	// lost is told once the stream cannot be followed.
	lost   func()
	buf    []byte
	broken bool
}

func (f *frameTap) Write(p []byte) (int, error) {
	f.follow(p)
	return f.WriteCloser.Write(p)
}

func (f *frameTap) follow(p []byte) {
	if f.broken {
		return
	}
	f.buf = append(f.buf, p...)
	for {
		end := bytes.Index(f.buf, []byte("\r\n\r\n"))
		if lf := bytes.Index(f.buf, []byte("\n\n")); lf >= 0 && (end < 0 || lf < end) {
			end = -2 // a header that ends with bare line feeds
		}
		if end == -1 {
			break
		}
		if end < 0 {
			f.broken, f.buf = true, nil
			f.lost()
			break
		}
		length := -1
		for line := range bytes.SplitSeq(f.buf[:end], []byte("\r\n")) {
			name, value, ok := bytes.Cut(line, []byte(":"))
			switch {
			case ok && bytes.EqualFold(name, []byte("Content-Length")):
				n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
				if err != nil || n < 0 {
					length = -2
				} else if length == -1 {
					length = n
				}
			case ok && bytes.EqualFold(name, []byte("Content-Type")):
			default:
				length = -2
			}
		}
		if length < 0 {
			f.broken, f.buf = true, nil
			f.lost()
			break
		}
		if len(f.buf) < end+4+length {
			break
		}
		f.frame(f.buf[end+4 : end+4+length])
		f.buf = f.buf[end+4+length:]
	}
}

// distinct lists the kinds of violations, elements' indices left out,
// each with how many times it occurred, at most limit of them.
func distinct(violations []string, limit int) []string {
	index := regexp.MustCompile(`\[[0-9]+\]`)
	count := map[string]int{}
	var order []string
	for _, v := range violations {
		k := index.ReplaceAllString(v, "[]")
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var out []string
	for i, k := range order {
		if i == limit {
			out = append(out, fmt.Sprintf("… and %d more kinds", len(order)-limit))
			break
		}
		out = append(out, fmt.Sprintf("%s (%d times)", k, count[k]))
	}
	return out
}
