// Package lspframe reads and writes the language server protocol's framed
// messages for the benchmark harnesses, and is the editor they play over
// a server's standard streams (Client): they stay outside the layers, the
// server's transport included, and share only this.
package lspframe

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
)

// Read calls fn with the body of each message r holds, in order, until r
// ends or a header is not the protocol's.
func Read(r *bufio.Reader, fn func(body []byte)) {
	for {
		h, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil || n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		fn(body)
	}
}

// Frame encodes msg, one of the harness's own values, as a framed
// message.
func Frame(msg any) []byte {
	body, err := json.Marshal(msg)
	if err != nil {
		panic(err) // the harness's own values always encode
	}
	return append(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(body)), body...)
}
