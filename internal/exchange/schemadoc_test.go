package exchange

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestMemberDoc(t *testing.T) {
	for _, tc := range []struct {
		owner, name string
		want        string // a substring; "" means no documentation
	}{
		{OwnerReview, "leanreview_review", "Keep it the **first key**"},
		{OwnerReview, "patch", "**array of strings, one diff line per element**"},
		{OwnerReview, "comments", "May be an empty array."},
		{OwnerComment, "side", "`LEFT` (old file: removed and context lines)"},
		{OwnerComment, "start_line", "1-based line number"},
		{OwnerComment, "replies", "**oldest first**"},
		{OwnerReply, "author", "Who wrote the reply"},
		{OwnerReply, "at", "RFC 3339"},
		{OwnerReply, "path", ""},      // not a reply member
		{OwnerComment, "title", ""},   // a review member only
		{"patch", "side", ""},         // not an owner
		{OwnerComment, "no_such", ""}, // unknown member
	} {
		t.Run(fmt.Sprint(tc.owner, ".", tc.name), func(t *testing.T) {
			got := memberDoc(tc.owner, tc.name)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("memberDoc(%q, %q): got %q, want it to contain %q", tc.owner, tc.name, got, tc.want)
			}
		})
	}
}

// Members lists each owner's members in the spec's order, which the model
// also keeps: the two must not drift apart.
func TestMembersOrder(t *testing.T) {
	for _, tc := range []struct {
		owner string
		want  []string
	}{
		{OwnerReview, ReviewKeys},
		{OwnerComment, CommentKeys},
		{OwnerReply, ReplyKeys},
	} {
		t.Run(fmt.Sprint(tc.owner), func(t *testing.T) {
			var got []string
			for _, m := range Members(tc.owner) {
				got = append(got, m.Name)
				if m.Title == "" || m.Markdown == "" || m.Description == "" {
					t.Errorf("%s.%s: got title %q, markdown %q, description %q, want all three", tc.owner, m.Name, m.Title, m.Markdown, m.Description)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Members(%q): got %q, want %q", tc.owner, got, tc.want)
			}
		})
	}
	if got := Members("nobody"); got != nil {
		t.Errorf("Members(nobody): got %v, want nil", got)
	}
}

func TestMemberInfo(t *testing.T) {
	for _, tc := range []struct {
		owner, name string
		typ         string
		required    bool
	}{
		{OwnerReview, "leanreview_review", "integer", true},
		{OwnerReview, "title", "string", false},
		{OwnerReview, "patch", "array", true}, // the first alternative: the preferred form
		{OwnerComment, "side", "string", true},
		{OwnerComment, "start_line", "integer", true},
		{OwnerComment, "end_line", "integer", false},
		{OwnerComment, "replies", "array", false},
		{OwnerReply, "body", "string", true},
		{OwnerReply, "at", "string", false},
	} {
		t.Run(fmt.Sprint(tc.owner, ".", tc.name), func(t *testing.T) {
			m, ok := Member(tc.owner, tc.name)
			if !ok {
				t.Errorf("Member(%q, %q): not found", tc.owner, tc.name)
				return
			}
			if m.Type != tc.typ || m.Required != tc.required {
				t.Errorf("Member(%q, %q): got type %q required %v, want %q %v", tc.owner, tc.name, m.Type, m.Required, tc.typ, tc.required)
			}
		})
	}
}

func TestEnumValues(t *testing.T) {
	for _, tc := range []struct {
		owner, name string
		want        []string // value=substring of its markdown description
	}{
		{OwnerComment, "side", []string{"RIGHT=The **new** image", "LEFT=The **old** image"}},
		{OwnerComment, "state", []string{
			"active=**The default.**",
			"dismissed=A person rejected it",
			"orphaned=no longer resolves",
			"stale=re-anchoring pass is pending",
		}},
		{OwnerComment, "path", nil},
		{OwnerReview, "side", nil},
	} {
		t.Run(fmt.Sprint(tc.owner, ".", tc.name), func(t *testing.T) {
			got := EnumValues(tc.owner, tc.name)
			if len(got) != len(tc.want) {
				t.Errorf("EnumValues(%q, %q): got %d values %v, want %d", tc.owner, tc.name, len(got), got, len(tc.want))
				return
			}
			for i, w := range tc.want {
				value, desc, _ := strings.Cut(w, "=")
				if got[i].Value != value || !strings.Contains(got[i].Markdown, desc) || got[i].Description == "" {
					t.Errorf("EnumValues(%q, %q)[%d]: got %+v, want value %q with a description containing %q", tc.owner, tc.name, i, got[i], value, desc)
				}
			}
		})
	}
}

// TestSchemaDocsAreCopies checks that what the accessors return cannot
// change what the next caller gets: the documentation is computed once
// for the process.
func TestSchemaDocsAreCopies(t *testing.T) {
	side := func() string {
		m, _ := Member(OwnerComment, "side")
		return m.Enum[0].Value
	}
	want := side()
	m, _ := Member(OwnerComment, "side")
	m.Enum[0].Value = "changed by Member's caller"
	for _, mm := range Members(OwnerComment) {
		if mm.Name == "side" {
			mm.Enum[0].Value = "changed by Members' caller"
		}
	}
	EnumValues(OwnerComment, "side")[0].Value = "changed by EnumValues' caller"
	if got := side(); got != want {
		t.Errorf("side's first value after callers changed their copies: got %q, want %q", got, want)
	}
}
