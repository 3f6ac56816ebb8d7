package forge

import (
	"testing"
)

// TestReadGitLabDiscussionsRefuses: input that is not glab api's listing
// gets an error naming the file, the element (the discussion), the note
// and the member, and what was expected.
func TestReadGitLabDiscussionsRefuses(t *testing.T) {
	const what = "the discussions of glab api projects/:id/merge_requests/N/discussions --paginate"
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "d.json is empty; expected " + what},
		{"syntax", "[\n  {\"id\": \"a\",}\n]", "d.json:2:14: not valid JSON: invalid character '}' looking for beginning of object key string"},
		{"GitLab error", `{"message": "404 Not found"}`, `d.json: value 1 is GitLab's error "404 Not found", not ` + what},
		{"GitLab token error", `{"error": "invalid_token", "error_description": "Token was revoked."}`, `d.json: value 1 is GitLab's error "invalid_token", not ` + what},
		{"GitHub's comments instead", `[{"id": 1, "path": "a", "body": "x"}]`, `d.json: element 1 has no "notes" member; expected ` + what},
		{"id not a string", `[{"id": 1, "notes": []}]`, `d.json: element 1: member "id" is a JSON number; expected a string`},
		{"notes not an array", `[{"id": "a", "notes": {}}]`, `d.json: element 1: member "notes" is a JSON object; expected an array`},
		{"note not an object", `[{"id": "a", "notes": []}, {"id": "b", "notes": [{"id": 1, "body": ""}, "x"]}]`, `d.json: element 2: note 2 is a string; expected an object: a note of ` + what},
		{"note without body", `[{"id": "a", "notes": [{"id": 1}]}]`, `d.json: element 1: note 1 has no "body" member; expected a note of ` + what},
		{"line a string", `[][{"id": "a", "notes": [{"id": 1, "body": "", "position": {"new_line": "4"}}]}]`, `d.json: element 1: note 1: member "position.new_line" is a JSON string; expected an integer`},
		{"system not a boolean", `[{"id": "a", "notes": [{"id": 1, "body": "", "system": "no"}]}]`, `d.json: element 1: note 1: member "system" is a JSON string; expected a boolean`},
		{"author a string", `[{"id": "a", "notes": [{"id": 1, "body": "", "author": "alice"}]}]`, `d.json: element 1: note 1: member "author" is a JSON string; expected an object`},
	}
	for _, tt := range tests {
		_, err := ReadGitLabDiscussions("d.json", []byte(tt.data))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got error %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// TestReadGitLabDiscussionsPages: concatenated pages and an empty listing
// are read, the notes in order.
func TestReadGitLabDiscussionsPages(t *testing.T) {
	data := "[{\"id\": \"a\", \"notes\": [{\"id\": 1, \"body\": \"x\"}, {\"id\": 2, \"body\": \"y\", \"position\": null}]}]\n[]\n[{\"id\": \"b\", \"individual_note\": true, \"notes\": []}]\n"
	ds, err := ReadGitLabDiscussions("d.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].ID != "a" || len(ds[0].Notes) != 2 || ds[0].Notes[1].ID != 2 || ds[1].ID != "b" || !ds[1].IndividualNote {
		t.Errorf("got %+v, want discussions a (notes 1, 2) and b", ds)
	}
}

func TestImportGitLabRefusesAPatchWithoutFiles(t *testing.T) {
	_, err := ImportGitLab(nil, []string{"not a diff"}, ImportOptions{})
	if err == nil || err.Error() != "the patch holds no file diff (expected the output of glab mr diff)" {
		t.Errorf("got %v, want the patch refused", err)
	}
}

// TestImportGitLabWithoutHead: without the head commit every position is
// current, whatever its head_sha; and GitLab's own notes alone make no
// comment.
func TestImportGitLabWithoutHead(t *testing.T) {
	patch := []string{"diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-one", "+two"}
	pos := &GitLabPosition{HeadSHA: "old", PositionType: "text", NewPath: "a.txt", OldPath: "a.txt", NewLine: 1}
	ds := []GitLabDiscussionRecord{
		{ID: "a", Notes: []GitLabNote{{ID: 5, Body: "On two.", Position: pos}}},
		{ID: "b", Notes: []GitLabNote{{ID: 6, Body: "added 1 commit", System: true}}},
	}
	im, err := ImportGitLab(ds, patch, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if im.Comments != 1 || len(im.Notes) != 0 {
		t.Errorf("got %d comments and notes %q, want the one active comment and no note", im.Comments, im.Notes)
	}
	if im, err = ImportGitLab(ds, patch, ImportOptions{Head: "new"}); err != nil || len(im.Notes) != 1 {
		t.Errorf("with --head new: got notes %q (%v), want the thread stale", im.Notes, err)
	}
}

// TestImportGitLabSaysWhatIsNotUTF8: the note GitHub's import gives, from
// the code both share.
func TestImportGitLabSaysWhatIsNotUTF8(t *testing.T) {
	patch := []string{"diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-caf\xe9", "+café"}
	im, err := ImportGitLab(nil, patch, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the patch has 1 line that is not UTF-8 (the first is line 5): in the review, its invalid bytes are U+FFFD"
	if len(im.Notes) != 1 || im.Notes[0] != want {
		t.Errorf("got notes %q, want %q", im.Notes, want)
	}
}
