// Package exchange is the review exchange format: it reads a
// *.review.json file into a JSON tree that keeps every value's byte range
// (Node), decodes the review from it with the spec's tolerance rules
// (Document, Review, Patch, Comment), checks it (Check, CheckIncremental:
// Diagnostic, with the format's codes in Codes), converts byte offsets to
// editor positions (Mapper, Cursor) and builds every edit of a review,
// keeping the person's formatting (Edit, edit.go: members, a state, a
// reply, a new comment; Format).
//
// A Document never changes once parsed. ParseEdited and parseIncremental
// read a later version of a document from an earlier one, sharing what
// the edit left alone: the patch's table of elements and its lines,
// moved by the edit's length when it came before them, and the comments
// spelt as they were. What two versions share is never written again, and
// holds none of either version's text.
package exchange
