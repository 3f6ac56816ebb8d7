package forge

import (
	"testing"
)

// TestReadGitHubCommentsRefuses: input that is not gh api's listing gets
// an error naming the file, the element or place, and what was expected.
func TestReadGitHubCommentsRefuses(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"empty", " \n", "c.json is empty; expected the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate"},
		{"syntax", "[\n  {\"id\": 1,}\n]", "c.json:2:12: not valid JSON: invalid character '}' looking for beginning of object key string"},
		{"cut short", "[{\"id\": 1", "c.json:1:10: not valid JSON: the JSON ends too early"},
		{"second page broken", "[]\n[{]", "c.json:2:3: not valid JSON: invalid character ']' looking for beginning of object key string"},
		{"object", `{"id": 1}`, "c.json: value 1 is an object; expected an array: the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate"},
		{"GitHub error", `{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}`, `c.json: value 1 is GitHub's error "Not Found", not the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate`},
		{"element not an object", `[1]`, "c.json: element 1 is a number; expected an object: the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate"},
		{"member missing", `[{"id": 1, "path": "a"}]`, `c.json: element 1 has no "body" member; expected the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate`},
		{"member null", `[{"id": null, "path": "a", "body": ""}]`, `c.json: element 1 has no "id" member; expected the review comments of gh api repos/OWNER/REPO/pulls/N/comments --paginate`},
		{"wrong type", `[{"id": 1, "path": "a", "body": "", "line": "12"}]`, `c.json: element 1: member "line" is a JSON string; expected an integer`},
		{"wrong nested type", `[][{"id": 1, "path": "a", "body": ""}, {"id": 2, "path": "a", "body": "", "user": {"login": 5}}]`, `c.json: element 2: member "user.login" is a JSON number; expected a string`},
	}
	for _, tt := range tests {
		_, err := ReadGitHubComments("c.json", []byte(tt.data))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got error %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// TestReadGitHubCommentsPages: concatenated pages, slurped pages and an
// empty listing are all read.
func TestReadGitHubCommentsPages(t *testing.T) {
	tests := []struct {
		name, data string
		ids        []int64
	}{
		{"one page", `[{"id": 1, "path": "a", "body": ""}]`, []int64{1}},
		{"pages", "[{\"id\": 1, \"path\": \"a\", \"body\": \"\"}]\n[{\"id\": 2, \"path\": \"a\", \"body\": \"\"}][]", []int64{1, 2}},
		{"slurped", `[[{"id": 1, "path": "a", "body": ""}], [{"id": 2, "path": "a", "body": ""}]]`, []int64{1, 2}},
		{"no comments", `[]`, nil},
	}
	for _, tt := range tests {
		cs, err := ReadGitHubComments("c.json", []byte(tt.data))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var ids []int64
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		if len(ids) != len(tt.ids) || (len(ids) > 0 && ids[len(ids)-1] != tt.ids[len(tt.ids)-1]) {
			t.Errorf("%s: got ids %v, want %v", tt.name, ids, tt.ids)
		}
	}
}

func TestImportGitHubRefusesAPatchWithoutFiles(t *testing.T) {
	_, err := ImportGitHub(nil, nil, []string{"not a diff"}, ImportOptions{})
	if err == nil || err.Error() != "the patch holds no file diff (expected the output of gh pr diff)" {
		t.Errorf("got %v, want the patch refused", err)
	}
}

// TestImportGitHubSaysWhatIsNotUTF8: a diff of a Latin-1 file cannot
// travel in JSON as it is; the import says so rather than change it
// silently.
func TestImportGitHubSaysWhatIsNotUTF8(t *testing.T) {
	patch := []string{"diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-caf\xe9", "+café"}
	im, err := ImportGitHub(nil, nil, patch, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the patch has 1 line that is not UTF-8 (the first is line 5): in the review, its invalid bytes are U+FFFD"
	if len(im.Notes) != 1 || im.Notes[0] != want {
		t.Errorf("got notes %q, want %q", im.Notes, want)
	}
}
