package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inserted returns what after adds to before, failing t unless after is
// before with one insertion and nothing else changed.
func inserted(t *testing.T, before, after string) string {
	t.Helper()
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	q := 0
	for q < len(before)-p && q < len(after)-p && before[len(before)-1-q] == after[len(after)-1-q] {
		q++
	}
	if p+q != len(before) {
		t.Fatalf("the write changed more than one insertion:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	return after[p : len(after)-q]
}

func TestAddCommentByLines(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var c Comment
	text := s.ok("lreview_add_comment", map[string]any{
		"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 28, "end_line": 30,
		"body": "Return the \"deleted\" flag 🙂",
	}, &c)
	want := `,
    {
      "id": "c5",
      "author": "assistant",
      "path": "app/users.py",
      "side": "RIGHT",
      "start_line": 28,
      "end_line": 30,
      "body": "Return the \"deleted\" flag 🙂",
      "state": "active",
      "snippet": "conn.commit()\nlog.info(\"deleted user %s\", user_id)\nreturn True",
      "at": "2026-12-03T14:00:00Z"
    }`
	if got := inserted(t, fixture(t), s.read("pr.review.json")); got != want {
		t.Errorf("got insertion\n%s\nwant\n%s", got, want)
	}
	if c.ID != "c5" || c.Anchor.Status != "ok" || len(c.Lines) != 3 || c.Lines[2] != "+    return True" || c.At != "2026-12-03T14:00:00Z" {
		t.Errorf("got comment %+v", c)
	}
	if !strings.HasPrefix(text, "added c5 on app/users.py RIGHT 28–30 of pr.review.json") {
		t.Errorf("got text %q", text)
	}
	var chk CheckOutput
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &chk)
	for _, d := range chk.Diagnostics {
		if d.CommentID == "c5" {
			t.Errorf("the new comment has a diagnostic: %+v", d)
		}
	}
}

func TestAddCommentBySnippet(t *testing.T) {
	// The server's --agent names who writes.
	s := newSession(t, Options{Agent: "reviewer"}, map[string]string{"pr.review.json": fixture(t)})
	var c Comment
	s.ok("lreview_add_comment", map[string]any{
		"file": "pr.review.json", "path": "app/users.py", "side": "LEFT",
		"snippet": "-    conn = connect()", "body": "Was this closed anywhere?",
	}, &c)
	if c.Side != "LEFT" || c.StartLine != 11 || c.EndLine != 11 || c.Snippet != "conn = connect()" || c.Author != "reviewer" || c.Anchor.Status != "ok" {
		t.Errorf("got %+v, want LEFT 11 by reviewer with the snippet from the patch", c)
	}
	// A multi-line snippet places a range.
	s.ok("lreview_add_comment", map[string]any{
		"file": "pr.review.json", "path": "app/test_users.py", "side": "RIGHT",
		"snippet": "def test_get_user_missing():\n    assert get_user(-1) is None", "body": "Name the case.",
	}, &c)
	if c.ID != "c6" || c.StartLine != 4 || c.EndLine != 5 {
		t.Errorf("got %+v, want c6 on RIGHT 4–5", c)
	}
	// Lines and a snippet that agree.
	s.ok("lreview_add_comment", map[string]any{
		"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 12,
		"snippet": "with closing(connect())", "body": "Good.",
	}, &c)
	if c.ID != "c7" || c.Snippet != "with closing(connect()) as conn:" {
		t.Errorf("got %+v, want c7 with the whole line as its snippet", c)
	}
}

func TestAddCommentRefusals(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	base := func(more map[string]any) map[string]any {
		args := map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "body": "x"}
		for k, v := range more {
			args[k] = v
		}
		return args
	}
	for _, tc := range []struct {
		name  string
		args  map[string]any
		wants []string
	}{
		{"line not in patch", base(map[string]any{"start_line": 20}),
			[]string{"start_line: RIGHT 20 of \"app/users.py\" is not in the patch", "nearest lines in the patch are RIGHT 10–15", "RIGHT 2–6, RIGHT 10–15, RIGHT 28–30"}},
		{"end not in patch", base(map[string]any{"start_line": 28, "end_line": 31}),
			[]string{"end_line: RIGHT 31", "RIGHT 28–30"}},
		{"range crosses hunks", base(map[string]any{"start_line": 5, "end_line": 11}),
			[]string{"end_line: RIGHT 5–11 crosses hunks", "RIGHT 2–6"}},
		{"inverted range", base(map[string]any{"start_line": 12, "end_line": 11}),
			[]string{"end_line: 11 is before start_line 12"}},
		{"snippet does not match the lines", base(map[string]any{"start_line": 11, "snippet": "with closing(connect()) as conn:"}),
			[]string{"snippet: ", "is not what RIGHT 11 of \"app/users.py\" holds", "it is at RIGHT 12: use start_line 12"}},
		{"snippet ambiguous", base(map[string]any{"snippet": "conn"}),
			[]string{"snippet: \"conn\" is at 4 places (RIGHT 6, RIGHT 12, RIGHT 13, RIGHT 28)", "give start_line"}},
		{"snippet not found", base(map[string]any{"snippet": "conn.rollback()"}),
			[]string{"snippet: \"conn.rollback()\" is not in the RIGHT image of \"app/users.py\"", "RIGHT 2–6, RIGHT 10–15, RIGHT 28–30"}},
		{"weak snippet", base(map[string]any{"snippet": ")"}),
			[]string{"snippet: ", "no letter or digit"}},
		{"unknown path", base(map[string]any{"path": "app/user.py", "start_line": 12}),
			[]string{"path: \"app/user.py\" is not a file of the patch", "\"app/users.py\""}},
		{"no such image", base(map[string]any{"path": "app/test_users.py", "side": "LEFT", "start_line": 1}),
			[]string{"side: \"app/test_users.py\" has no LEFT image in the patch (a new file); use side RIGHT"}},
		{"no place", base(nil), []string{"start_line: give start_line"}},
		{"bad side", base(map[string]any{"side": "NEW", "start_line": 12}), []string{"side"}},
		{"empty body", base(map[string]any{"body": " ", "start_line": 12}), []string{"body: expected the comment's text"}},
		{"missing body", map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 12}, []string{"body"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.refused("lreview_add_comment", tc.args, tc.wants...)
		})
	}
	if got := s.read("pr.review.json"); got != fixture(t) {
		t.Errorf("a refused call wrote the file:\n%s", got)
	}
}

// TestWritesRefuseSyntaxErrors refuses to edit a file that is not valid
// JSON: where an insertion lands would be a guess.
func TestWritesRefuseSyntaxErrors(t *testing.T) {
	broken := strings.Replace(fixture(t), `"side": "RIGHT",`, `"side": "RIGHT"`, 1)
	s := newSession(t, Options{}, map[string]string{"pr.review.json": broken})
	want := "file: cannot edit pr.review.json: syntax error at line 54, column 7: missing ',' between members"
	s.refused("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 12, "body": "x"}, want, "lreview_check")
	s.refused("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c1", "body": "x"}, want)
	s.refused("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c1", "state": "stale"}, want)
	s.refused("lreview_fix", map[string]any{"file": "pr.review.json"}, want)
	s.refused("lreview_rebase", map[string]any{"file": "pr.review.json", "diff_text": rebaseDiff}, want)
	if s.read("pr.review.json") != broken {
		t.Error("a refused call wrote the file")
	}
}

// TestWritesRefusedWhenChanged changes the file between the tool's read
// and its write, as a person saving in an editor would: nothing is written.
func TestWritesRefusedWhenChanged(t *testing.T) {
	const edited = "  "
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"lreview_add_comment", map[string]any{"path": "app/users.py", "side": "RIGHT", "start_line": 12, "body": "x"}},
		{"lreview_reply", map[string]any{"id": "c1", "body": "Done."}},
		{"lreview_set_state", map[string]any{"id": "c2", "state": "stale"}},
		{"lreview_fix", map[string]any{}},
		{"lreview_rebase", map[string]any{"diff_text": rebaseDiff}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			s := newSession(t, Options{BeforeWrite: func(path string) {
				writeFile(t, path, fixture(t)+edited)
			}}, map[string]string{"pr.review.json": fixture(t)})
			tc.args["file"] = "pr.review.json"
			s.refused(tc.tool, tc.args, "file: pr.review.json changed since it was read", "nothing written", "read it again")
			if got := s.read("pr.review.json"); got != fixture(t)+edited {
				t.Errorf("got file\n%s\nwant the person's edit kept", got)
			}
		})
	}
}

func TestWritesRefusedOutsideRoot(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "pr.review.json"), fixture(t))
	s := newSession(t, Options{}, nil)
	if err := os.Symlink(outside, filepath.Join(s.root, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"elsewhere/pr.review.json", filepath.Join(outside, "pr.review.json"), "../" + filepath.Base(outside) + "/pr.review.json"} {
		s.refused("lreview_reply", map[string]any{"file": file, "id": "c1", "body": "x"}, "file: ", "outside the server's root")
		s.refused("lreview_new", map[string]any{"file": strings.TrimSuffix(file, ".review.json") + "-new.review.json", "diff_text": rebaseDiff}, "file: ", "outside the server's root")
	}
	s.refused("lreview_new", map[string]any{"file": "new.review.json", "diff_file": "elsewhere/pr.review.json"}, "diff_file: ", "outside the server's root")
	if data, _ := os.ReadFile(filepath.Join(outside, "pr.review.json")); string(data) != fixture(t) {
		t.Error("a file outside the root was written")
	}
}

func TestReply(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out ReplyOutput
	s.ok("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c1", "body": "Moved the fetch.\nSee line 13."}, &out)
	if want := `,
        { "author": "assistant", "body": "Moved the fetch.\nSee line 13.", "at": "2026-12-03T14:00:00Z" }`; inserted(t, fixture(t), s.read("pr.review.json")) != want {
		t.Errorf("got file\n%s\nwant the reply inserted as\n%s", s.read("pr.review.json"), want)
	}
	if out.Replies != 2 || out.Reply.Author != "assistant" {
		t.Errorf("got %+v", out)
	}
	// A comment without replies gets the member, after the known members.
	before := s.read("pr.review.json")
	s.ok("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c2", "body": "Fixed."}, &out)
	if got := inserted(t, before, s.read("pr.review.json")); !strings.Contains(got, `"replies": [`) || !strings.Contains(got, `"author": "assistant"`) {
		t.Errorf("got insertion %q", got)
	}
	s.refused("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c9", "body": "x"}, `id: pr.review.json has no comment "c9"; its comments are c1, c2, c3, c4`)
	s.refused("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c1", "body": ""}, "body: ")
}

func TestSetState(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out SetStateOutput
	s.ok("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c2", "state": "stale"}, &out)
	want := strings.Replace(fixture(t), `      "snippet": "row`, `      "state": "stale",
      "snippet": "row`, 1)
	if got := s.read("pr.review.json"); got != want {
		t.Errorf("got file\n%s\nwant\n%s", got, want)
	}
	if out != (SetStateOutput{File: "pr.review.json", ID: "c2", From: "active", To: "stale", Changed: true}) {
		t.Errorf("got %+v", out)
	}
	s.ok("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c2", "state": "stale"}, &out)
	if out.Changed {
		t.Errorf("setting the same state: got %+v, want nothing changed", out)
	}
	before := s.read("pr.review.json")
	s.refused("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c4", "state": "active"},
		"state: comment c4 was dismissed by a person, and a person's decision stays as it is")
	s.refused("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c1", "state": "resolved"}, "state")
	s.refused("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c0", "state": "active"}, "id: ")
	if s.read("pr.review.json") != before {
		t.Error("a refused call wrote the file")
	}
}

// TestWritesKeepLayout writes into a compact CRLF review whose comments
// sit one a line, one of them without an id: the new text follows that
// layout and line ending, and nothing else changes.
func TestWritesKeepLayout(t *testing.T) {
	src := "{\"leanreview_review\": 1,\r\n" +
		"\"patch\": \"--- a/x.go\\n+++ b/x.go\\n@@ -1,2 +1,2 @@\\n a := 1\\n-b := 2\\n+b := \\\"😀\\\"\\n\",\r\n" +
		"\"comments\": [\r\n" +
		"  {\"path\": \"x.go\", \"side\": \"RIGHT\", \"start_line\": 2, \"body\": \"quote\", \"x-mine\": true}\r\n" +
		"]}\r\n"
	s := newSession(t, Options{}, map[string]string{"r.review.json": src})
	var c Comment
	s.ok("lreview_add_comment", map[string]any{"file": "r.review.json", "path": "x.go", "side": "RIGHT", "snippet": `b := "😀"`, "body": "Emoji\r\nok?"}, &c)
	want := ",\r\n  {\"id\": \"c1\", \"author\": \"assistant\", \"path\": \"x.go\", \"side\": \"RIGHT\", \"start_line\": 2, \"body\": \"Emoji\\r\\nok?\", \"state\": \"active\", \"snippet\": \"b := \\\"😀\\\"\", \"at\": \"2026-12-03T14:00:00Z\"}"
	if got := inserted(t, src, s.read("r.review.json")); got != want {
		t.Errorf("got insertion\n%q\nwant\n%q", got, want)
	}
	// The comment without an id is "#1", as lreview_comments names it.
	before := s.read("r.review.json")
	var r ReplyOutput
	s.ok("lreview_reply", map[string]any{"file": "r.review.json", "id": "#1", "body": "Yes."}, &r)
	want = strings.Replace(before, `"body": "quote", "x-mine"`, `"body": "quote", "replies": [{"author": "assistant", "body": "Yes.", "at": "2026-12-03T14:00:00Z"}], "x-mine"`, 1)
	if got := s.read("r.review.json"); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
