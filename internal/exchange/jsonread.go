package exchange

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// SyntaxError is a place where the source is not valid JSON.
type SyntaxError struct {
	Start, End int
	Msg        string
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack;
// no review needs more than a handful of levels.
const maxDepth = 256

// maxSyntaxErrors keeps a binary file opened by mistake from producing
// millions of diagnostics.
const maxSyntaxErrors = 100

type reader struct {
	src  []byte
	pos  int
	errs []SyntaxError
	// blocks hand out the nodes, child pointers and strings read.
	blocks
	key Node // scratch node for decoding member names
	// scratch holds an escaped string while it is decoded (see keep).
	scratch []byte
	// kids holds the children of the containers being read, innermost
	// last; each container's are then copied, exactly sized, into a block
	// of ptrs (see children).
	kids []*Node
	// open holds the closing delimiters of the containers being read, so
	// that a stray '}' or ']' can end the right one.
	open []byte
	// lines counts lines for messages, built on the first error that needs
	// one: counting from the start at each error would be quadratic.
	lines *Mapper
	// reuse, when set, is a subtree known to be spelt at reuseAt exactly as
	// it was in an earlier version of the document (see parseIncremental).
	reuse   *Node
	reuseAt int
	// shared is the reused subtree when it is the earlier version's own
	// nodes rather than a copy: it is read by that version concurrently,
	// so the reader writes nothing into it (see parseIncremental).
	shared *Node
	// slots are comments of an earlier version that the text spells as
	// that version did, in order of position (see commentSlots): an
	// element of the root's "comments" array that starts where a slot
	// does is taken from it rather than read (see element; comments sets
	// slotArray for that array). edited says that there were slots: the
	// comments read then get storage of their own (see comment).
	slots     []slot
	edited    bool
	slotArray bool
	// commentBlocks are the blocks a full read keeps the comments in,
	// apart from the rest of the tree (see comment).
	commentBlocks blocks
	// took counts the comments taken from slots, and tookShared those of
	// them that are the earlier version's own nodes; for tests.
	took, tookShared int
	// read counts the nodes read, for tests of what was taken instead.
	read int
	// table holds the elements of the patch array while they are all
	// strings (see lazyElems), tabling says it still does, and tableArray
	// asks array to start one (see patch).
	table      stringTable
	tabling    bool
	tableArray bool
	// peek has a string value left in peeked, a view of the scratch or
	// source, to be looked at and dropped (a table element's), instead of
	// copied into Str.
	peek   bool
	peeked []byte
}

// blocks are what a reader hands memory out of, in blocks: one
// allocation per node, child list or string would dominate reading. A
// node or string in a block keeps all of it alive, and what its nodes
// point to: a subtree that later versions may share is read into blocks
// of its own (see patch and comment).
type blocks struct {
	slab []Node       // nodes
	ptrs []*Node      // children (see children)
	strs stringBlocks // decoded strings (see keep)
	// nodeStep and ptrStep, when set, are the sizes of the next blocks of
	// nodes and pointers, which double up to slabNodes and ptrBlock:
	// blocks that may hold little start small.
	nodeStep, ptrStep int
}

// slabNodes is the number of nodes per block of r.slab.
const slabNodes = 1024

// ptrBlock is the number of child pointers per block of r.ptrs.
const ptrBlock = 4096

// nextBlock returns the size of the next block, full, or *step while it
// is set, which then doubles until it reaches full.
func nextBlock(step *int, full int) int {
	n := *step
	if n == 0 {
		return full
	}
	if *step = 2 * n; *step >= full {
		*step = 0
	}
	return n
}

// pushKid adds n to r.kids, doubling the stack when it is full: append
// grows a large slice by a quarter, which for a large array makes several
// times the final stack of garbage.
func (r *reader) pushKid(n *Node) {
	if len(r.kids) == cap(r.kids) {
		r.kids = slices.Grow(r.kids, len(r.kids)+8)
	}
	r.kids = append(r.kids, n)
}

// children moves the children read since r.kids had length base into
// memory of their own and gives them to n.
func (r *reader) children(n *Node, base int) {
	k := r.kids[base:]
	var own []*Node
	switch {
	case len(k) == 0:
	case len(k) > ptrBlock/8:
		own = make([]*Node, len(k)) // a large one would waste the rest of a block
	default:
		if cap(r.ptrs)-len(r.ptrs) < len(k) {
			r.ptrs = make([]*Node, 0, max(len(k), nextBlock(&r.ptrStep, ptrBlock)))
		}
		at := len(r.ptrs)
		r.ptrs = r.ptrs[:at+len(k)]
		own = r.ptrs[at : at+len(k) : at+len(k)]
	}
	copy(own, k)
	n.setChildren(own)
	if n.Kind == KindArray {
		n.onlyStrings = true
		for _, c := range k {
			if c.Kind != KindString {
				n.onlyStrings = false
				break
			}
		}
	}
	clear(k)
	r.kids = r.kids[:base]
}

func (r *reader) newNode() *Node {
	if len(r.slab) == 0 {
		r.slab = make([]Node, nextBlock(&r.nodeStep, slabNodes))
	}
	n := &r.slab[0]
	r.slab = r.slab[1:]
	r.read++
	return n
}

// ParseJSON reads src tolerantly: it always returns a root node (possibly
// KindInvalid) and lists every syntax error it had to recover from. The
// tree's strings share src's memory: src must not be modified afterwards
// (see Parse).
func ParseJSON(src []byte) (*Node, []SyntaxError) {
	return parseJSON(&reader{src: src})
}

// MaxSource is the largest source the reader takes: element indexes, child
// counts and key offsets are 32 bits (Node). The server refuses far
// smaller messages; the command line refuses a larger file before reading
// it, and Parse reports one as a syntax error.
const MaxSource = 1<<31 - 1

func parseJSON(r *reader) (*Node, []SyntaxError) {
	src := r.src
	if len(src) > MaxSource {
		r.fail(0, 0, fmt.Sprintf("document of %d bytes: this tool reads at most %d", len(src), MaxSource))
		return &Node{Kind: KindInvalid, Index: -1}, r.errs
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		r.pos = 3 // tolerate a byte-order mark
	}
	r.skipSpace()
	if r.pos >= len(src) {
		r.fail(r.pos, r.pos, "empty document: expected a JSON object")
		return &Node{Kind: KindInvalid, Start: r.pos, End: r.pos, Index: -1}, r.errs
	}
	root := r.value(0)
	for {
		r.skipSpace()
		if r.pos >= len(src) {
			break
		}
		start := r.pos
		r.skipToken()
		r.fail(start, r.pos, "unexpected "+r.describe(start)+" after the end of the document")
	}
	return root, r.errs
}

func (r *reader) fail(start, end int, msg string) {
	if len(r.errs) >= maxSyntaxErrors {
		return
	}
	if end <= start && len(r.src) > 0 {
		// Point at one character: at end of input, the last one (all of
		// it, not its last byte).
		if start >= len(r.src) {
			_, size := utf8.DecodeLastRune(r.src)
			start = len(r.src) - size
		}
		_, size := utf8.DecodeRune(r.src[start:])
		end = start + size
	}
	if len(r.errs) == maxSyntaxErrors-1 {
		msg = "too many syntax errors; stopped reporting here"
	}
	r.errs = append(r.errs, SyntaxError{Start: start, End: end, Msg: msg})
}

func (r *reader) skipSpace() { r.pos = jsontext.SkipSpace(r.src, r.pos) }

// describe names the token at off for error messages.
func (r *reader) describe(off int) string {
	if off >= len(r.src) {
		return "end of input"
	}
	c := r.src[off]
	switch c {
	case '{', '}', '[', ']', ',', ':':
		return fmt.Sprintf("'%c'", c)
	case '"':
		return "string"
	}
	end := off
	for end < len(r.src) && end-off < 20 && isWordByte(r.src[end]) {
		end++
	}
	if end > off {
		return fmt.Sprintf("%q", r.src[off:end])
	}
	ru, _ := utf8.DecodeRune(r.src[off:])
	if ru == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return fmt.Sprintf("%q", ru)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.' || c == '$'
}

// skipToken advances over one token of whatever kind, at least one byte.
func (r *reader) skipToken() {
	if r.pos >= len(r.src) {
		return
	}
	switch c := r.src[r.pos]; {
	case c == '"':
		r.stringValue(&Node{})
	case isWordByte(c):
		for r.pos < len(r.src) && isWordByte(r.src[r.pos]) {
			r.pos++
		}
	default:
		_, size := utf8.DecodeRune(r.src[r.pos:])
		r.pos += size
	}
}

func (r *reader) value(depth int) *Node {
	if r.reuse != nil && r.pos == r.reuseAt && depth == 1 {
		n := r.reuse
		r.reuse = nil
		r.pos = n.End
		return n
	}
	n := r.newNode()
	*n = Node{Start: r.pos, End: r.pos, Index: -1}
	if r.pos >= len(r.src) {
		r.fail(r.pos, r.pos, "unexpected end of input: expected a value")
		return n
	}
	switch c := r.src[r.pos]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			r.fail(r.pos, r.pos+1, fmt.Sprintf("nesting deeper than %d levels", maxDepth))
			r.skipNested()
			n.End = r.pos
			return n
		}
		if c == '{' {
			r.object(n, depth)
		} else {
			r.array(n, depth)
		}
	case c == '"':
		n.Kind = KindString
		r.stringValue(n)
	case c == '-' || c >= '0' && c <= '9':
		n.Kind = KindNumber
		r.number(n)
	case isWordByte(c):
		for r.pos < len(r.src) && isWordByte(r.src[r.pos]) {
			r.pos++
		}
		n.End = r.pos
		if end, ok := jsontext.Literal(r.src, n.Start); !ok || end != n.End {
			r.fail(n.Start, n.End, "unexpected "+r.describe(n.Start)+": expected a value (strings need double quotes)")
		} else if c == 'n' {
			n.Kind = KindNull
		} else {
			n.Kind, n.Bool = KindBool, c == 't'
		}
	case c == '\'':
		// A single-quoted string: read it like a string so the rest of the
		// document keeps its meaning, but report it.
		r.fail(r.pos, r.pos+1, "strings need double quotes, not single quotes")
		r.pos++
		for r.pos < len(r.src) && r.src[r.pos] != '\'' && r.src[r.pos] != '\n' {
			r.pos++
		}
		if r.pos < len(r.src) && r.src[r.pos] == '\'' {
			r.pos++
		}
		n.End = r.pos
	default:
		// Leave delimiters for the caller; consume anything else.
		if c != ',' && c != '}' && c != ']' && c != ':' {
			r.skipToken()
			n.End = r.pos
			r.fail(n.Start, n.End, "unexpected "+r.describe(n.Start)+": expected a value")
		} else {
			r.fail(r.pos, r.pos+1, "unexpected "+r.describe(r.pos)+": expected a value")
		}
	}
	return n
}

// skipNested skips a container without building nodes and without
// recursion, so that depth costs neither stack nor memory.
func (r *reader) skipNested() {
	depth := 0
	for r.pos < len(r.src) {
		switch r.src[r.pos] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				r.pos++
				return
			}
		case '"':
			r.stringValue(&Node{})
			continue
		}
		r.pos++
	}
}

// closesOuter reports whether c closes a container other than the
// innermost one, so the innermost should end here without consuming it.
func (r *reader) closesOuter(c byte) bool {
	for i := len(r.open) - 2; i >= 0; i-- {
		if r.open[i] == c {
			return true
		}
	}
	return false
}

// memberName returns a member's name, read as b: the format's own string
// for one of its names, which a review repeats on every comment (and the
// patch's, which leaves the tree, keeps no block of it alive), else a
// copy in the reader's string blocks.
func (r *reader) memberName(b []byte) string {
	for _, keys := range [...][]string{CommentKeys, ReviewKeys} {
		for _, k := range keys {
			if string(b) == k {
				return k
			}
		}
	}
	return r.strs.keep(b)
}

func (r *reader) object(n *Node, depth int) {
	n.Kind = KindObject
	r.items(n, &objectItems, func() { r.pushKid(r.member(depth)) })
}

// member reads `"key": value`, recovering from a missing colon, an
// unquoted key or a missing value.
func (r *reader) member(depth int) *Node {
	keyStart := r.pos
	var name string
	keyEscape := false
	if r.src[r.pos] == '"' {
		k := &r.key
		*k = Node{}
		r.peek = true
		r.stringValue(k)
		r.peek = false
		name, keyEscape = r.memberName(r.peeked), k.Escape
	} else {
		r.skipToken()
		name = string(r.src[keyStart:r.pos])
		r.fail(keyStart, r.pos, "member names need double quotes")
	}
	keyEnd := r.pos
	isPatch := depth == 0 && name == "patch"
	r.skipSpace()
	var v *Node
	if r.pos < len(r.src) && r.src[r.pos] == ':' {
		r.pos++
		r.skipSpace()
		if r.pos < len(r.src) && (r.src[r.pos] == ',' || r.src[r.pos] == '}') {
			r.fail(keyStart, keyEnd, fmt.Sprintf("member %q has no value", name))
			v = &Node{Start: r.pos, End: r.pos}
		} else {
			switch {
			case isPatch:
				v = r.patch(depth)
			case depth == 0 && name == "comments":
				v = r.comments()
			default:
				v = r.value(depth + 1)
			}
		}
	} else {
		r.fail(keyStart, keyEnd, fmt.Sprintf("missing ':' after member name %q", name))
		if r.pos < len(r.src) && startsValue(r.src[r.pos]) && r.src[r.pos] != '"' {
			v = r.value(depth + 1)
		} else {
			v = &Node{Start: keyEnd, End: keyEnd}
		}
	}
	if v == r.shared && v.Name == name && v.Index == -1 && v.KeyStart() == keyStart && v.KeyEnd() == keyEnd {
		return v // the same member at the same place: nothing to write
	}
	if v == r.shared {
		v = cloneShifted(v, 0)
		r.shared = nil
	}
	v.Name, v.Index = name, -1
	v.keyStart, v.keyEnd, v.keyEscape = int32(keyStart), int32(keyEnd), keyEscape
	return v
}

func startsValue(c byte) bool {
	return c == '{' || c == '[' || c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n'
}

func (r *reader) array(n *Node, depth int) {
	n.Kind = KindArray
	// Only the root's comments array takes slots (depth 1): should the
	// member's value be an object, not the arrays inside it.
	slots := r.slotArray && depth == 1
	r.slotArray = false
	r.tabling = r.tableArray && depth == 1
	r.tableArray = false
	base := len(r.kids)
	r.items(n, &arrayItems, func() {
		if r.tabling && r.src[r.pos] == '"' && r.tableElem() {
			return
		}
		r.spillTable()
		r.pushKid(r.element(depth, slots, int32(len(r.kids)-base)))
	})
}

// containerSyntax is what differs between reading an object and an
// array: the brackets, and the words of the messages.
type containerSyntax struct {
	close, otherClose byte
	noun              string // "object"
	expected          string // what may follow a comma
	between           string // what a missing comma is between
	// startsItem reports a byte that begins an item, not junk, after an
	// item without a comma.
	startsItem func(byte) bool
}

var (
	objectItems = containerSyntax{close: '}', otherClose: ']', noun: "object", expected: "a member name", between: "members",
		startsItem: func(c byte) bool { return c == '"' }}
	arrayItems = containerSyntax{close: ']', otherClose: '}', noun: "array", expected: "a value", between: "array elements",
		startsItem: startsValue}
)

// items reads the members or elements of the container n, from its
// opening bracket to its closing one, item reading each; it reports and
// steps over a missing or stray comma, a mismatched bracket and junk
// between items, so that the rest keeps its meaning.
func (r *reader) items(n *Node, syn *containerSyntax, item func()) {
	r.pos++ // the opening bracket
	r.open = append(r.open, syn.close)
	base := len(r.kids)
	defer func() {
		r.open = r.open[:len(r.open)-1]
		r.children(n, base)
	}()
	afterComma := -1
	for {
		r.skipSpace()
		if r.pos >= len(r.src) {
			r.fail(r.pos, r.pos, fmt.Sprintf("unexpected end of input: missing '%c' for the %s opened at %s", syn.close, syn.noun, r.where(n.Start)))
			n.End = r.pos
			return
		}
		switch c := r.src[r.pos]; c {
		case syn.close:
			if afterComma >= 0 {
				r.fail(afterComma, afterComma+1, fmt.Sprintf("trailing comma before '%c'", c))
			}
			r.pos++
			n.End, n.Closed = r.pos, true
			return
		case syn.otherClose:
			r.fail(r.pos, r.pos+1, fmt.Sprintf("unexpected '%c': expected '%c' to close the %s opened at %s", c, syn.close, syn.noun, r.where(n.Start)))
			if r.closesOuter(c) {
				n.End = r.pos
				return
			}
			r.pos++
			continue
		case ',':
			r.fail(r.pos, r.pos+1, "unexpected ',': expected "+syn.expected)
			r.pos++
			continue
		}
		afterComma = -1
		item()
		r.skipSpace()
		if r.pos >= len(r.src) {
			continue // reported at the top of the loop
		}
		switch c := r.src[r.pos]; {
		case c == ',':
			afterComma = r.pos
			r.pos++
		case c == '}' || c == ']':
		case syn.startsItem(c):
			r.fail(r.pos, r.pos+1, "missing ',' between "+syn.between)
		default:
			start := r.pos
			r.skipToken()
			r.fail(start, r.pos, fmt.Sprintf("unexpected %s: expected ',' or '%c'", r.describe(start), syn.close))
			r.skipComma(&afterComma) // the junk was the only error
		}
	}
}

// skipComma consumes the separator that follows junk after a member or
// element, so that it is not reported as a second, misleading error.
func (r *reader) skipComma(afterComma *int) {
	r.skipSpace()
	if r.pos < len(r.src) && r.src[r.pos] == ',' {
		*afterComma = r.pos
		r.pos++
	}
}
