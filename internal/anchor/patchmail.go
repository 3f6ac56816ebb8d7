package anchor

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"slices"
	"strings"
)

// mboxFrom is the first line of each message format-patch writes: a
// commit id and a fixed date, so that mail tools take it for a mailbox.
var mboxFrom = regexp.MustCompile(`(?m)^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\r?$`)

// readPatchMail reads data as the output of `git format-patch` for one
// commit (the diff inline, or attached with --attach or --inline): an
// email whose subject is the commit's title and whose body is its
// message, a "---" line, a diffstat, and the diff. ok is false when data
// is not an email; err says why an email cannot be taken: several
// commits, an encoding this does not read, no diff in it.
func readPatchMail(data []byte) (m Commit, ok bool, err error) {
	if !looksLikeMail(data) {
		return Commit{}, false, nil
	}
	if n := len(mboxFrom.FindAllIndex(data, -1)); n > 1 {
		return Commit{}, true, fmt.Errorf("the input holds %d patches (git format-patch of %d commits): give one, or the diff of the range (git diff A..B)", n, n)
	}
	if first, rest := cutLine(data); mboxFrom.Match(first) {
		data = rest
	}
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return Commit{}, true, fmt.Errorf("reading the patch email's header: %v", err)
	}
	body, err := mailBody(msg)
	if err != nil {
		return Commit{}, true, err
	}
	m.Title, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return Commit{}, true, fmt.Errorf("decoding the patch email's Subject: %v", err)
	}
	m.Title = strings.TrimSpace(patchPrefix.ReplaceAllString(m.Title, ""))
	message, diff, found := splitPatchBody(body)
	if !found {
		return Commit{}, true, errors.New(`the patch email holds no diff: expected a "---" line, then the diff ("diff --git" or "---"/"+++" file headers)`)
	}
	m.Message, m.Diff = strings.TrimSpace(message), trimSignature(diff)
	return m, true, nil
}

// looksLikeMail reports whether data starts as format-patch's output
// does: its mailbox line, or a header a saved email starts with.
func looksLikeMail(data []byte) bool {
	// The literal first: a long first line (a binary file's) is not
	// searched by the expression.
	if first, _ := cutLine(data); bytes.HasPrefix(first, []byte("From ")) && mboxFrom.Match(first) {
		return true
	}
	return slices.ContainsFunc([]string{"From: ", "Subject: ", "Date: "}, func(h string) bool { return bytes.HasPrefix(data, []byte(h)) })
}

// patchPrefix is the "[PATCH]", "[PATCH v2 3/7]" or "[RFC PATCH]" that
// format-patch puts before a title.
var patchPrefix = regexp.MustCompile(`^\s*\[[^\]]*PATCH[^\]]*\]\s*`)

// mailBody returns msg's text: its body decoded, or, for an email with
// the patch attached (git format-patch --attach or --inline), its parts
// decoded and joined in order: the message, then the diff.
func mailBody(msg *mail.Message) ([]byte, error) {
	mediaType, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if !strings.HasPrefix(mediaType, "multipart/") {
		return decodeBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	parts := multipart.NewReader(msg.Body, params["boundary"])
	var body []byte
	for {
		part, err := parts.NextPart() // decodes a quoted-printable part itself
		if errors.Is(err, io.EOF) {
			return body, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the patch email's parts: %v", err)
		}
		text, err := decodeBody(part.Header.Get("Content-Transfer-Encoding"), part)
		if err != nil {
			return nil, err
		}
		body = append(body, text...)
	}
}

// decodeBody returns what r holds, decoded as the Content-Transfer-Encoding
// enc says.
func decodeBody(enc string, r io.Reader) ([]byte, error) {
	switch enc = strings.ToLower(strings.TrimSpace(enc)); enc {
	case "", "7bit", "8bit", "binary":
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r) // line breaks are skipped
	default:
		return nil, fmt.Errorf("the patch email's Content-Transfer-Encoding %q is not one this reads (8bit, quoted-printable or base64)", enc)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("decoding the patch email's body: %v", err)
	}
	return body, nil
}

// splitPatchBody splits a format-patch body at its first "---" line into
// the commit message and the diff, which starts at the first line after
// it that starts a diff (the diffstat and any notes are in between).
func splitPatchBody(body []byte) (message string, diff []byte, found bool) {
	for rest := body; len(rest) > 0; {
		line, next := cutLine(rest)
		if strings.TrimRight(string(line), "\r") == "---" {
			diff = diffFrom(next)
			return string(body[:len(body)-len(rest)]), diff, diff != nil
		}
		rest = next
	}
	return "", nil, false
}

// trimSignature drops the signature format-patch ends a message with: a
// "-- " line and the lines after it, when none of those is a diff line
// (a removed line "- " is spelt "-- " too, and hunk lines follow it).
func trimSignature(diff []byte) []byte {
	at := bytes.LastIndex(diff, []byte("\n-- \n"))
	if at < 0 {
		at = bytes.LastIndex(diff, []byte("\n-- \r\n"))
	}
	if at < 0 {
		return diff
	}
	_, tail := cutLine(diff[at+1:])
	for len(tail) > 0 {
		line, next := cutLine(tail)
		if len(line) > 0 && strings.ContainsRune(" +-@\\", rune(line[0])) || bytes.HasPrefix(line, []byte("diff ")) {
			return diff
		}
		tail = next
	}
	return diff[:at+1]
}
