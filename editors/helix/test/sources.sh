#!/usr/bin/env bash
# The review in the code, in a real Helix under tmux: a repository holding
# a review on disk and the Go file it reviews, Helix set up with the
# README's "review in the code" block (gopls left out: the test needs the
# comments only). Opening the Go file shows the comment's diagnostic at
# the end of its line; space-k shows the thread; space-a "Reply to c2"
# opens the reply's body as Markdown, and :w writes it into the review.
#   HX, LREVIEW_LSP, CI as in run.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helixdir=$(dirname "$here")
repo=$(cd "$helixdir/../.." && pwd)

skip() {
  if [[ -n ${CI:-} ]]; then
    echo "helix source tests: $1 (CI is set: failing instead of skipping)" >&2
    exit 1
  fi
  echo "helix source tests skipped: $1"
  exit 0
}
# shellcheck source=tmux.sh
source "$here/tmux.sh"
hx=$(find_hx)
[[ -n $hx && -x $hx ]] || skip "no Helix"
command -v tmux >/dev/null || skip "no tmux"
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "helix source tests: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

tmp=$(mktemp -d)
sock="lreview-hx-src-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$tmp"
}
[[ -n ${KEEP:-} ]] || trap cleanup EXIT

mkdir -p "$tmp/home" "$tmp/config/helix" "$tmp/bin" "$tmp/work/.git" "$tmp/work/internal/api" "$tmp/work/reviews"
ln -s "$LREVIEW_LSP" "$tmp/bin/lreview-lsp"
# readme_block MARKER: the fenced toml block of README.md whose first line is MARKER.
readme_block() {
  awk -v marker="$1" '
    /^ *```toml *$/ { fence = 1; first = 1; next }
    fence && /^ *``` *$/ { if (found) exit; fence = 0; next }
    fence {
      sub(/^   /, "")
      if (first && $0 == marker) found = 1
      first = 0
      if (found) print
    }' "$helixdir/README.md"
}
{
  cat "$helixdir/languages.toml"
  readme_block "# ~/.config/helix/languages.toml: the review in the code" | sed 's/"gopls", //'
} >"$tmp/config/helix/languages.toml"
grep -q 'language-servers = \["lreview-lsp"\]' "$tmp/config/helix/languages.toml" ||
  { echo "helix source tests: README.md has no block attaching lreview-lsp to go" >&2; exit 1; }
readme_block "# ~/.config/helix/config.toml" >"$tmp/config/helix/config.toml"
echo 'ref: refs/heads/main' >"$tmp/work/.git/HEAD"
cp "$repo/editors/vim/test/fixtures/worktree.review.json" "$tmp/work/reviews/handler.review.json"
{
  echo 'package api'
  for i in $(seq 2 69); do echo "// line $i"; done
  printf '%s\n' '    ctx := context.Background()' '    defer cancel(ctx)' '    result, err := calculate(input)' '    _ = err // 🚀 later' '    return result, nil' '}'
} >"$tmp/work/internal/api/handler.go"
hxenv=(env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" PATH="$tmp/bin:$PATH")


tmux -L "$sock" -f /dev/null new-session -d -x 200 -y 50 -s hx \
  "cd '$tmp/work' && ${hxenv[*]@Q} TERM=xterm-256color '$hx' +72 internal/api/handler.go"

# The comment of the review on disk, at the end of line 72 of the Go file.
# Helix shows one of the line's two diagnostics at its end (c1 or c2).
wait_for "72      result, err := calculate(input)  c"
screen | grep -E -- "c1: Return the error|c2: The old call ignored errors" | grep -qF 'result, err := calculate(input)' ||
  fail "the comment is not on line 72"
echo "ok   helix: a review's comment shows on the source file's line"

# space-k: the whole thread.
keys Space k
wait_for "The old call ignored errors."
wait_for "Return the error"
echo "ok   helix: space k on the line shows the threads"
keys Escape

# space-a "Reply to c2": the reply's body opens as a Markdown file of its
# own (the server's), no JSON string to type into; :w there writes it
# into the review as one JSON string, escaped by the server; :write-all
# saves the review Helix opened for the edit.
keys Space a
wait_for "Reply to c2"
keys Enter
wait_for "c2-reply1.md"
keys i
wait_for " INS "
keys -l 'Done: "quoted", a \ too.'
keys Escape
wait_for " NOR "
keys : w Enter
review="$tmp/work/reviews/handler.review.json"
want='"body": "Done: \"quoted\", a \\ too."'
deadline=$((SECONDS + 30))
until grep -qF -- "$want" "$review"; do
  ((SECONDS < deadline)) || { cat "$review" >&2; fail "the reply is not in the review on disk"; }
  keys : write-all Enter
  sleep 0.5
done
"$LREVIEW_LSP" check "$review" >"$tmp/check.out" 2>&1 || { cat "$review" "$tmp/check.out" >&2; fail "the review with the reply does not check"; }
echo "ok   helix: Reply opens the body as Markdown, written into the review as a JSON string"
echo "3 passed"
