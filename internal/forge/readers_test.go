package forge

import "testing"

// TestReadNewForgesRefuse: a listing that is not the forge's gets an
// error naming the file, the element or place and what was expected —
// the forge's own error answer included.
func TestReadNewForgesRefuse(t *testing.T) {
	tests := []struct {
		name string
		read func([]byte) error
		data string
		want string
	}{
		{"gerrit array", gerritRead, ")]}'\n[]", "c.json: value 1 is an array; expected the comments of GET /changes/ID/comments (a JSON object: path → CommentInfo array)"},
		{"gerrit syntax after the XSSI line", gerritRead, ")]}'\n{\"a\": [}", "c.json:2:8: not valid JSON: invalid character '}' looking for beginning of value"},
		{"gerrit comment without id", gerritRead, `{"a.txt": [{"message": "x"}]}`, `c.json: "a.txt" comment 1 has no "id" member; expected a CommentInfo`},
		{"gerrit line a string", gerritRead, `{"a.txt": [{"id": "1", "message": "x", "line": "3"}]}`, `c.json: "a.txt" comment 1: member "line" is a JSON string; expected an integer`},
		{"bitbucket error", func(d []byte) error { _, err := ReadBitbucketActivities("c.json", d); return err },
			`{"errors": [{"context": null, "message": "Pull request 7 does not exist.", "exceptionName": "com.atlassian.bitbucket.pull.NoSuchPullRequestException"}]}`,
			`c.json: value 1 is Bitbucket's error "Pull request 7 does not exist.", not the activities of GET …/pull-requests/N/activities (pages with "values")`},
		{"bitbucket activity without action", func(d []byte) error { _, err := ReadBitbucketActivities("c.json", d); return err },
			`{"values": [{"id": 1}], "isLastPage": true}`, `c.json: element 1 has no "action" member; expected the activities of GET …/pull-requests/N/activities (pages with "values")`},
		{"azure error", func(d []byte) error { _, err := ReadAzureThreads("c.json", d); return err },
			`{"$id": "1", "message": "TF401180: The requested pull request was not found.", "typeKey": "GitPullRequestNotFoundException"}`,
			`c.json: value 1 is Azure DevOps's error "TF401180: The requested pull request was not found.", not the threads of GET …/pullRequests/N/threads (an object with "value")`},
		{"gitea comment without path", func(d []byte) error { _, err := ReadGiteaComments("c.json", d); return err },
			`[{"id": 1, "body": ""}]`, `c.json: element 1 has no "path" member; expected the review comments of GET /repos/OWNER/REPO/pulls/N/reviews/ID/comments`},
	}
	for _, tt := range tests {
		err := tt.read([]byte(tt.data))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got error %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

func gerritRead(d []byte) error {
	_, err := ReadGerritComments("c.json", d)
	return err
}
