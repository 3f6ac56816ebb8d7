package exchange

import (
	"fmt"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// rootMembersThatMatter are the review's members whose duplicate changes
// what the review is: a reader that keeps the first sees another patch,
// other comments or another version than one that keeps the last.
var rootMembersThatMatter = []string{"leanreview_review", "patch", "comments"}

// checkDuplicateMembers reports every member of an object in n's tree
// (those of the subtrees skip picks left out) whose name an earlier member
// of the same object has. JSON leaves duplicates to the reader: lreview,
// like encoding/json, keeps the last, other readers the first, so the same
// file is two reviews. The later member is reported, related to the first;
// messages call n what, and the objects inside it "this object".
func checkDuplicateMembers(doc *Document, n *Node, what string, add func(Diagnostic), skip func(*Node) bool) {
	top := n
	var walk func(n *Node)
	walk = func(n *Node) {
		if skip != nil && skip(n) {
			return
		}
		switch n.Kind {
		case KindObject:
			ms := n.Members()
			if len(ms) > 1 {
				where := "this object"
				if n == top {
					where = what
				}
				reportDuplicates(doc, n, ms, where, add)
			}
			for _, m := range ms {
				walk(m)
			}
		case KindArray:
			if n.table() != nil { // the patch's table: strings only, no element made
				return
			}
			for _, e := range n.Elems() {
				walk(e)
			}
		}
	}
	walk(n)
}

// reportDuplicates reports the members ms of obj named as an earlier one.
func reportDuplicates(doc *Document, obj *Node, ms []*Node, where string, add func(Diagnostic)) {
	earlier := firstNamed(ms)
	for i, m := range ms {
		f := earlier(i)
		if f == nil {
			continue
		}
		sev := SeverityWarning
		if obj == doc.Root && slices.Contains(rootMembersThatMatter, m.Name) {
			sev = SeverityError
		}
		add(Diagnostic{Range: KeyRange(m), Severity: sev, Code: CodeDuplicateMember,
			Message: fmt.Sprintf("member %s appears twice in %s: readers that keep the first see another review than those that keep the last (lreview reads the last); remove one", jsontext.Quote(m.Name), where),
			Related: []Related{{Range: KeyRange(f), Message: "first " + jsontext.Quote(m.Name)}}})
	}
}

// smallObject is the most members an object has for firstNamed to look
// for an earlier one by comparing names pairwise: a review's objects have
// a dozen or fewer, and thousands of them, and a map each would be most
// of what checking them allocates.
const smallObject = 16

// firstNamed returns, for member i of ms, the first member before it
// with its name, or nil.
func firstNamed(ms []*Node) func(i int) *Node {
	if len(ms) <= smallObject {
		return func(i int) *Node {
			for _, f := range ms[:i] {
				if f.Name == ms[i].Name {
					return f
				}
			}
			return nil
		}
	}
	first := make(map[string]*Node, len(ms))
	for _, m := range slices.Backward(ms) {
		first[m.Name] = m
	}
	return func(i int) *Node {
		if f := first[ms[i].Name]; f != ms[i] {
			return f
		}
		return nil
	}
}
