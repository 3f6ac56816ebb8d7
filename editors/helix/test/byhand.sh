#!/usr/bin/env bash
# Writing a review by hand in the real Helix (under tmux), set up as
# run.sh sets it up: completion accepted for every kind of item, in empty
# and in filled values, a new comment from the completion menu, "Comment
# on" from column 1 of a patch line with the body typed in the Markdown
# file it opens; then the file saved and `lreview-lsp check`ed. run.sh runs it;
# the variables are run.sh's (HX, LREVIEW_LSP, TS_JSON, CI).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helixdir=$(dirname "$here")

# shellcheck source=tmux.sh
source "$here/tmux.sh"
hx=$(find_hx)
if [[ -z $hx || ! -x $hx ]] || ! command -v tmux >/dev/null; then
  [[ -n ${CI:-} ]] && { echo "helix by-hand tests: no Helix or tmux (CI is set)" >&2; exit 1; }
  echo "helix by-hand tests skipped: no Helix or tmux"
  exit 0
fi
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "helix tests: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

tmp=$(mktemp -d)
sock="lreview-hx-byhand-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/config/helix" "$tmp/bin" "$tmp/work"
cp "$helixdir/languages.toml" "$tmp/config/helix/languages.toml"
ln -s "$LREVIEW_LSP" "$tmp/bin/lreview-lsp"
if [[ -n ${TS_JSON:-} && -f $TS_JSON ]]; then
  mkdir -p "$tmp/config/helix/runtime/grammars"
  cp "$TS_JSON" "$tmp/config/helix/runtime/grammars/json.so"
fi
hxenv=(env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" PATH="$tmp/bin:$PATH")

# A comment to fill in: an empty path and side, a start_line and a state
# begun, a blank line for a member, a slot after it for a new comment.
cat >"$tmp/work/hand.review.json" <<'JSON'
{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/internal/api/handler.go b/internal/api/handler.go",
    "--- a/internal/api/handler.go",
    "+++ b/internal/api/handler.go",
    "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
    "     ctx := context.Background()",
    "     defer cancel(ctx)",
    "-    result := calculate(input)",
    "+    result, err := calculate(input)",
    "+    _ = err",
    "     return result, nil"
  ],
  "comments": [
    {
      "id": "c1",
      "path": "",
      "side": "",
      "start_line": 7,
      "body": "x",
      
      "state": "d"
    },
    
  ]
}
JSON

# choose TEXT: moves through the completion menu (C-n, which Helix
# previews in the document) until the screen shows TEXT.
choose() {
  for _ in $(seq 1 15); do
    screen | grep -qF -- "$1" && return 0
    local before
    before=$(screen)
    keys C-n
    local deadline=$((SECONDS + 10))
    while [[ $(screen) == "$before" ]] && ((SECONDS < deadline)); do sleep 0.05; done
  done
  fail "no item of the menu gives: $1"
}
# complete LINE MOVE INSERT LABEL SHOWN [TYPED]: at line LINE, from its
# end (gl) moved by MOVE ("h" or ""), enters insert mode with INSERT (i
# or a), asks for completion (C-x), waits for the item LABEL, moves to the
# item that makes the line show SHOWN, accepts it (Enter), types TYPED
# and leaves insert mode.
complete() {
  keys "$1" G
  wait_for_cursor "$1:[0-9]+"
  keys g l
  [[ -n $2 ]] && keys "$2"
  keys "$3"
  wait_for " INS "
  keys C-x
  wait_for " $4 "
  choose "$5"
  keys Enter
  [[ -n ${6:-} ]] && keys -l "$6"
  keys Escape
  wait_for " NOR "
}

tmux -L "$sock" -f /dev/null new-session -d -x 200 -y 50 -s hx \
  "cd '$tmp/work' && ${hxenv[*]@Q} TERM=xterm-256color '$hx' hand.review.json"
wait_for "●"  # the server's diagnostics, in the gutter
passed=0

complete 18 h i internal/api/handler.go '"path": "internal/api/handler.go",'
complete 19 h i RIGHT '"side": "RIGHT",'
complete 20 "" i 72 '"start_line": 72,'
complete 23 "" i dismissed '"state": "dismissed"'
complete 22 "" a end_line '"end_line":' "73,"
complete 25 "" a "new comment" '"id": "c2",'
keys : w Enter
wait_for "written"
file="$tmp/work/hand.review.json"
for want in '"path": "internal/api/handler.go",' '"side": "RIGHT",' '"start_line": 72,' '"end_line": 73,' '"state": "dismissed"' '"id": "c2",'; do
  grep -qF -- "$want" "$file" || { cat "$file" >&2; fail "completion: the file lacks $want"; }
done
"$LREVIEW_LSP" check "$file" >"$tmp/check.out" 2>&1 || { cat "$file" "$tmp/check.out" >&2; fail "completion: check failed"; }
if grep -q 'error' "$tmp/check.out"; then cat "$tmp/check.out" >&2; fail "completion: check found errors"; fi
echo "ok   helix: every kind of completion item, accepted in empty and filled values, leaves a review that checks"
passed=$((passed + 1))

# "Comment on" from column 1 of a patch line (its indentation): the new
# body opens as Markdown, and what is typed there goes into the review.
keys 1 1 G
wait_for_cursor "11:[0-9]+"
keys g h
wait_for_cursor "11:1"
keys Space a
wait_for "Comment on RIGHT 72"
# The code action menu has no preview: its first item is current.
current() { # whether the menu draws "Comment on RIGHT 72" in reverse video
  local line pre
  line=$(screen -e | grep -F "Comment on RIGHT 72") || return 1
  pre=${line%%Comment on RIGHT 72*}
  pre=${pre##*$'\e[0m'}
  [[ $pre == *$'\e[7m'* ]]
}
for _ in $(seq 1 10); do
  current && break
  keys Down
  sleep 0.2
done
current || fail "Comment on RIGHT 72 never became the menu's current item"
keys Enter
# The server opens the new body as a Markdown file of its own (no JSON
# string to type into); :w there writes it into the review, escaped by
# the server; :write-all saves the review.
wait_for "body.md"
keys i
wait_for " INS "
keys -l 'Typed by "hand".'
keys Escape
wait_for " NOR "
keys : w Enter
deadline=$((SECONDS + 30))
until grep -qF '"body": "Typed by \"hand\"."' "$file"; do
  ((SECONDS < deadline)) || { cat "$file" >&2; fail "Comment on: the typed text is not the new body"; }
  keys : write-all Enter
  sleep 0.5
done
"$LREVIEW_LSP" check "$file" >"$tmp/check.out" 2>&1 || { cat "$file" "$tmp/check.out" >&2; fail "Comment on: check failed"; }
echo "ok   helix: Comment on from column 1 opens the new body as Markdown"
passed=$((passed + 1))
keys : q ! Enter
echo "$passed by-hand tests passed"
