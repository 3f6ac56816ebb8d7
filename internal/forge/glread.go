package forge

import (
	"encoding/json"
	"fmt"
)

// GitLabDiscussionRecord is a merge request discussion as
// GET /projects/:id/merge_requests/:iid/discussions lists it: the members
// an import reads. Notes[0] is the thread's first note, the others its
// replies in order.
type GitLabDiscussionRecord struct {
	ID             string       `json:"id"`
	IndividualNote bool         `json:"individual_note"`
	Notes          []GitLabNote `json:"notes"`
}

// GitLabNote is one note of a discussion. Type is "DiffNote" for a note
// on the diff, "DiscussionNote" or null otherwise; System is set for the
// notes GitLab writes itself ("changed this line in version 2").
type GitLabNote struct {
	ID         int64       `json:"id"`
	Type       *string     `json:"type"`
	Body       string      `json:"body"`
	Author     *GitLabUser `json:"author"`
	CreatedAt  string      `json:"created_at"`
	System     bool        `json:"system"`
	Resolvable bool        `json:"resolvable"`
	Resolved   bool        `json:"resolved"`
	// Position is the create-discussion position as GitLab keeps it
	// (null on a note that is not on the diff): a line number that is
	// null there reads as 0, which no line has.
	Position *GitLabPosition `json:"position"`
}

// GitLabUser is a note's author.
type GitLabUser struct {
	Username string `json:"username"`
	Name     string `json:"name"`
}

// gitlabDiscussionsWhat is what a discussions file should hold.
const gitlabDiscussionsWhat = "the discussions of glab api projects/:id/merge_requests/N/discussions --paginate"

// ReadGitLabDiscussions reads the output of
// glab api projects/:id/merge_requests/N/discussions --paginate: one JSON
// array per page, concatenated. name is the file's name, for messages;
// an error names the element (the discussion), the note and the member.
func ReadGitLabDiscussions(name string, data []byte) ([]GitLabDiscussionRecord, error) {
	var out []GitLabDiscussionRecord
	l := listing{forge: "GitLab", what: gitlabDiscussionsWhat, required: []string{"id", "notes"}}
	err := readPages(name, data, l, func(elem json.RawMessage) error {
		var d struct {
			ID             string            `json:"id"`
			IndividualNote bool              `json:"individual_note"`
			Notes          []json.RawMessage `json:"notes"`
		}
		if err := json.Unmarshal(elem, &d); err != nil {
			return err
		}
		rec := GitLabDiscussionRecord{ID: d.ID, IndividualNote: d.IndividualNote}
		for k, raw := range d.Notes {
			if msg := objectProblem(raw, []string{"id", "body"}); msg != "" {
				return fmt.Errorf("note %d %s a note of %s", k+1, msg, gitlabDiscussionsWhat)
			}
			var n GitLabNote
			if err := json.Unmarshal(raw, &n); err != nil {
				return fmt.Errorf("note %d: %s", k+1, memberProblem(err))
			}
			rec.Notes = append(rec.Notes, n)
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}
