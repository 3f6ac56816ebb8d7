package exchange

import (
	"errors"
	"hash/maphash"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// SchemaCache remembers which comments passed the schema, by the hash of
// their source text. A comment's validity depends on its text alone, so
// after an edit only the comments that changed are validated again: on a
// review with thousands of comments that is the difference between a
// keystroke costing one comment or all of them.
type SchemaCache struct {
	seed  maphash.Seed
	clean map[uint64]bool
}

// placeholderComment stands in for a comment validated on its own: it
// passes the comment schema, so the document-level run checks everything
// but the comments while keeping every element's index.
var placeholderComment = map[string]any{"path": "p", "side": "RIGHT", "start_line": 1, "body": ""}

// ValidateCached is Validate with a cache of the comments found valid in
// an earlier version; it returns the violations and the cache to pass next
// time. It reports exactly what Validate reports (TestValidateCached).
func (v *SchemaValidator) ValidateCached(doc *Document, prev *SchemaCache) ([]SchemaViolation, *SchemaCache) {
	next := &SchemaCache{seed: maphash.MakeSeed(), clean: map[uint64]bool{}}
	if prev != nil {
		next.seed = prev.seed
	}
	comments := doc.Root.Member("comments")
	if doc.Root.Kind != KindObject || !v.shortcut || comments == nil || comments.Kind != KindArray {
		return v.Validate(doc), next
	}
	inst, patchFaults := instanceOf(doc, true)
	own := make([]any, len(comments.Elems))
	var alone []*Node
	allObjects := true
	for i, c := range comments.Elems {
		if c.Kind != KindObject {
			own[i] = instance(c, doc.Src)
			allObjects = false
			continue
		}
		own[i] = placeholderComment
		h := maphash.Bytes(next.seed, doc.Src[c.Start:c.End])
		if prev != nil && prev.clean[h] {
			next.clean[h] = true
			continue
		}
		alone = append(alone, c)
	}
	if allObjects {
		// Nothing at the document level depends on the comments' content
		// or count: an empty array checks the rest just as well, without
		// validating a placeholder per comment.
		own = []any{}
	}
	inst.(map[string]any)["comments"] = own

	m := &mapper{v: v, doc: doc}
	for _, e := range patchFaults {
		m.addElementType(e)
	}
	m.run(v.compiled, inst, doc.Root)
	for _, c := range alone {
		before := len(m.out)
		m.run(v.comment, instance(c, doc.Src), c)
		if len(m.out) == before {
			next.clean[maphash.Bytes(next.seed, doc.Src[c.Start:c.End])] = true
		}
	}
	return m.result(), next
}

// run validates inst, made from base, with schema s and maps its errors.
func (m *mapper) run(s *jsonschema.Schema, inst any, base *Node) {
	m.base = base
	err := (&SchemaValidator{compiled: s}).run(inst)
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		m.walk(ve)
	default:
		m.add(base, "", "the document could not be checked against the schema: "+err.Error())
	}
	m.base = nil
}
