// Package features computes what an editor shows for a review document:
// hover, definition, references, completion, code actions, outline, code
// lenses, semantic tokens and gutter labels. Each is a function of an
// analyzed document and a byte offset or range, and returns plain results
// (byte ranges, words, Markdown) that the language server only converts
// to protocol types. The anchoring engine they read is internal/anchor.
// Most are pure; two read beyond the document, through the inputs their
// caller hands them: WorktreeDiagnostics and the review in the code read
// the working tree's files (internal/worktree, bounded and cached there),
// and Contract compares OpenAPI descriptions (internal/contract, oasdiff).
package features
