package forge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// GitHubThreadComment is a review comment as GET
// /repos/{owner}/{repo}/pulls/{n}/comments lists it: the members an
// import reads.
type GitHubThreadComment struct {
	ID                int64       `json:"id"`
	InReplyToID       *int64      `json:"in_reply_to_id"`
	Path              string      `json:"path"`
	Body              string      `json:"body"`
	User              *GitHubUser `json:"user"`
	CreatedAt         string      `json:"created_at"`
	Line              *int        `json:"line"`
	OriginalLine      *int        `json:"original_line"`
	StartLine         *int        `json:"start_line"`
	OriginalStartLine *int        `json:"original_start_line"`
	Side              *string     `json:"side"`
	StartSide         *string     `json:"start_side"`
	SubjectType       string      `json:"subject_type"`
	// DiffHunk is the diff around the comment, ending at its last line.
	DiffHunk string `json:"diff_hunk"`
}

// GitHubUser is a comment's or review's author; null for a deleted
// account.
type GitHubUser struct {
	Login string `json:"login"`
}

// GitHubReviewRecord is a review as GET …/pulls/{n}/reviews lists it.
type GitHubReviewRecord struct {
	ID          int64  `json:"id"`
	Body        string `json:"body"`
	State       string `json:"state"`
	SubmittedAt string `json:"submitted_at"`
}

// ReadGitHubComments reads the output of
// gh api repos/{o}/{r}/pulls/{n}/comments --paginate: one JSON array per
// page, concatenated (or, with --slurp, one array of them). name is the
// file's name, for messages.
func ReadGitHubComments(name string, data []byte) ([]GitHubThreadComment, error) {
	return readRecords[GitHubThreadComment](name, data, listing{forge: "GitHub",
		what: "the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate", required: []string{"id", "path", "body"}})
}

// ReadGitHubReviews reads the output of
// gh api repos/{o}/{r}/pulls/{n}/reviews --paginate.
func ReadGitHubReviews(name string, data []byte) ([]GitHubReviewRecord, error) {
	return readRecords[GitHubReviewRecord](name, data, listing{forge: "GitHub",
		what: "the reviews of gh api repos/OWNER/REPO/pulls/N/reviews --paginate", required: []string{"id", "body"}})
}

// listing says what a file of pages should hold: the forge whose API
// prints it, what it is (for messages) and the members every element must
// have.
type listing struct {
	forge, what string
	required    []string
	// member, when set, is the member of an object page that holds its
	// elements: Bitbucket's "values", Azure DevOps' "value".
	member string
}

// readRecords decodes every object of every page of data as a T.
func readRecords[T any](name string, data []byte, l listing) ([]T, error) {
	var out []T
	err := readPages(name, data, l, func(elem json.RawMessage) error {
		var r T
		if err := json.Unmarshal(elem, &r); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// readPages calls each for every object of every top-level array of
// data (gh api --paginate and glab api --paginate both print one array
// per page), after checking it has the members l requires.
func readPages(name string, data []byte, l listing, each func(json.RawMessage) error) error {
	data = withoutXSSI(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s is empty; expected %s", name, l.what)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	n := 0 // elements read, for messages
	for page := 1; ; page++ {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return syntaxError(name, data, start, err)
		}
		elems, err := pageElems(name, page, raw, l)
		if err != nil {
			return err
		}
		for _, e := range elems {
			n++
			if err := checkElem(name, n, e, l); err != nil {
				return err
			}
			if err := each(e); err != nil {
				return memberError(name, n, err)
			}
		}
	}
}

// pageElems returns the elements of one top-level value: an array, or
// with --slurp an array of arrays.
func pageElems(name string, page int, raw json.RawMessage, l listing) ([]json.RawMessage, error) {
	var elems []json.RawMessage
	if l.member != "" && jsonKind(raw) == "an object" {
		var page map[string]json.RawMessage
		if json.Unmarshal(raw, &page) == nil && jsonKind(page[l.member]) == "an array" {
			raw = page[l.member]
		}
	}
	if jsonKind(raw) == "null" {
		// null decodes as an empty array would: a listing of nothing,
		// where the forge listed nothing at all (a failed jq, a proxy).
		return nil, fmt.Errorf("%s: value %d is null; expected an array: %s", name, page, l.what)
	}
	if err := json.Unmarshal(raw, &elems); err != nil {
		// Both forges answer a failed request with an object naming the
		// error: GitHub's and GitLab's "message", GitLab's "error" too.
		var apiErr struct {
			Message any    `json:"message"`
			Error   string `json:"error"`
			Errors  []struct {
				Message string `json:"message"`
			} `json:"errors"` // Bitbucket's
		}
		if json.Unmarshal(raw, &apiErr) == nil {
			if len(apiErr.Errors) > 0 && apiErr.Errors[0].Message != "" {
				apiErr.Error = apiErr.Errors[0].Message
			}
			if m, ok := apiErr.Message.(string); ok && m != "" {
				return nil, fmt.Errorf("%s: value %d is %s's error %q, not %s", name, page, l.forge, m, l.what)
			}
			if apiErr.Error != "" {
				return nil, fmt.Errorf("%s: value %d is %s's error %q, not %s", name, page, l.forge, apiErr.Error, l.what)
			}
		}
		return nil, fmt.Errorf("%s: value %d is %s; expected an array: %s", name, page, jsonKind(raw), l.what)
	}
	var flat []json.RawMessage
	for _, e := range elems {
		var inner []json.RawMessage
		if jsonKind(e) == "an array" && json.Unmarshal(e, &inner) == nil {
			flat = append(flat, inner...) // gh api --slurp
			continue
		}
		flat = append(flat, e)
	}
	return flat, nil
}

// checkElem checks that element n is an object with the members l
// requires.
func checkElem(name string, n int, e json.RawMessage, l listing) error {
	if msg := objectProblem(e, l.required); msg != "" {
		return fmt.Errorf("%s: element %d %s %s", name, n, msg, l.what)
	}
	return nil
}

// objectProblem says what keeps e from being an object with the required
// members, ending where what it should hold follows ("is an array;
// expected an object:", "has no \"id\" member; expected"); "" when nothing does.
func objectProblem(e json.RawMessage, required []string) string {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(e, &members); err != nil || members == nil {
		return "is " + jsonKind(e) + "; expected an object:"
	}
	for _, r := range required {
		if v, ok := members[r]; !ok || string(v) == "null" {
			return fmt.Sprintf("has no %q member; expected", r)
		}
	}
	return ""
}

// memberError names the member a decode failed on and what it expected.
func memberError(name string, n int, err error) error {
	return fmt.Errorf("%s: element %d: %s", name, n, memberProblem(err))
}

// memberProblem is a decode error as memberError words it.
func memberProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("member %q is a JSON %s; expected %s", te.Field, te.Value, goKind(te.Type))
	}
	return err.Error()
}

func goKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice:
		return "an array"
	}
	return t.String()
}

// syntaxError places a JSON syntax error at its line and column.
func syntaxError(name string, data []byte, start int64, err error) error {
	off := int(start)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) - 1 // Offset counts the offending byte as read
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		off = len(data)
	}
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "the JSON ends too early"
	}
	return fmt.Errorf("%s:%d:%d: not valid JSON: %s", name, line, col, strings.TrimPrefix(msg, "json: "))
}

// jsonKind names a JSON value's type with its article.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '[':
		return "an array"
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// withoutXSSI removes the line Gerrit starts every JSON answer with,
// )]}', which keeps a browser from running it as a script.
func withoutXSSI(data []byte) []byte {
	i := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	if !bytes.HasPrefix(data[i:], []byte(")]}'")) {
		return data
	}
	// Blanks in its place keep the lines and columns of messages.
	out := bytes.Clone(data)
	copy(out[i:], "    ")
	return out
}
