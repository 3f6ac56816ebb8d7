// Package features computes what an editor shows for a review document:
// hover, definition, references, completion, code actions, outline, code
// lenses, semantic tokens and gutter labels. Each is a pure function of an
// analyzed document and a byte offset or range, and returns plain results
// (byte ranges, words, Markdown) that the language server only converts
// to protocol types. The anchoring engine they read is internal/anchor.
package features
