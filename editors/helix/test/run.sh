#!/usr/bin/env bash
# End-to-end test of the Helix integration in a real Helix under tmux, set
# up as README.md says (languages.toml as shipped, the README's config.toml
# block, lreview-lsp found on PATH): `hx --health lreview`, a drifted review
# opened, the diagnostic and the inlay hints read from the screen, the
# preferred code action chosen from the space-a menu, the file saved and
# checked.
#   HX           Helix to run (default: /opt/lreview-helix/bin/hx, then hx on PATH)
#   LREVIEW_LSP  the lreview-lsp binary under test (required)
#   TS_JSON      tree-sitter's JSON grammar (scripts/build-json-grammar): loaded as
#                the json grammar, so that the diff colours are checked too
#   CI           when set, a missing Helix, tmux or TS_JSON fails instead of skipping
# Every wait polls the screen until what it waits for shows, with a timeout.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helixdir=$(dirname "$here")
repo=$(cd "$helixdir/../.." && pwd)

skip() {
  if [[ -n ${CI:-} ]]; then
    echo "helix tests: $1 (CI is set: failing instead of skipping)" >&2
    exit 1
  fi
  echo "helix tests skipped: $1"
  exit 0
}

# shellcheck source=tmux.sh
source "$here/tmux.sh"
hx=$(find_hx)
[[ -n $hx && -x $hx ]] || skip "no Helix (install it with: sh scripts/install-helix)"
version=$("$hx" --version 2>/dev/null | head -n 1 || true)
[[ $version == helix\ * ]] || skip "$hx is not Helix (--version says: ${version:-nothing})"
echo "== $version"
command -v tmux >/dev/null || skip "no tmux (apt-get install tmux)"
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "helix tests: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

tmp=$(mktemp -d)
sock="lreview-hx-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# An isolated Helix set up as README.md's install steps say: its own HOME
# and config folder, the shipped languages.toml and queries, the README's
# config.toml block as written there, the grammar under the name Helix
# looks for, and lreview-lsp on PATH as the snippet expects.
mkdir -p "$tmp/home" "$tmp/config/helix/runtime/queries" "$tmp/bin" "$tmp/work"
cp "$helixdir/languages.toml" "$tmp/config/helix/languages.toml"
cp -r "$helixdir/runtime/queries/lreview" "$tmp/config/helix/runtime/queries/"
ln -s "$LREVIEW_LSP" "$tmp/bin/lreview-lsp"
# readme_config: the fenced toml block of README.md whose first line is
# "# ~/.config/helix/config.toml", without the list item's indentation.
readme_config() {
  awk '
    /^ *```toml *$/ { fence = 1; first = 1; next }
    fence && /^ *``` *$/ { if (found) exit; fence = 0; next }
    fence {
      sub(/^   /, "")
      if (first && $0 == "# ~/.config/helix/config.toml") found = 1
      first = 0
      if (found) print
    }' "$helixdir/README.md"
}
readme_config >"$tmp/config/helix/config.toml"
grep -q '^display-inlay-hints = true$' "$tmp/config/helix/config.toml" ||
  { echo "helix tests: README.md has no config.toml block turning on display-inlay-hints" >&2; exit 1; }
# Debian's Helix ships no grammars: the JSON one, when given, makes the
# queries under runtime/queries/lreview take effect.
colours=false
if [[ -n ${TS_JSON:-} ]]; then
  [[ -f $TS_JSON ]] || { echo "helix tests: TS_JSON=$TS_JSON is not a file" >&2; exit 1; }
  mkdir -p "$tmp/config/helix/runtime/grammars"
  cp "$TS_JSON" "$tmp/config/helix/runtime/grammars/json.so"
  colours=true
elif [[ -n ${CI:-} ]]; then
  echo "helix tests: TS_JSON is unset (sh scripts/build-json-grammar); CI is set: failing instead of skipping the colours" >&2
  exit 1
fi
hxenv=(env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" PATH="$tmp/bin:$PATH")
fixture="$repo/editors/vim/test/fixtures/drift.review.json"
cp "$fixture" "$tmp/work/drift.review.json"


passed=0

# 0. `hx --health lreview`, the README's check: the server found on PATH,
#    the grammar found once installed.
health=$("${hxenv[@]}" NO_COLOR=1 "$hx" --health lreview 2>&1 | sed $'s/\e\\[[0-9;]*m//g')
grep -qF "lreview-lsp: $tmp/bin/lreview-lsp" <<<"$health" ||
  { echo "FAIL helix: hx --health lreview does not find lreview-lsp:" >&2; echo "$health" >&2; exit 1; }
if $colours; then
  grep -qE '^Tree-sitter parser: *✓' <<<"$health" ||
    { echo "FAIL helix: hx --health lreview does not find the JSON grammar:" >&2; echo "$health" >&2; exit 1; }
fi
if $colours; then
  echo "ok   helix: hx --health lreview finds the server and the grammar"
else
  echo "ok   helix: hx --health lreview finds the server"
fi
passed=$((passed + 1))

tmux -L "$sock" -f /dev/null new-session -d -x 200 -y 50 -s hx \
  "cd '$tmp/work' && ${hxenv[*]@Q} TERM=xterm-256color '$hx' drift.review.json"

# 1. The server starts and its drift diagnostic shows at the end of the
#    snippet's line (26 in the fixture).
want='the snippet is not what RIGHT 71 of "internal/api/handler.go" holds; it is at RIGHT 72'
wait_for "$want"
screen | grep -F -- "$want" | grep -q '"snippet": "result, err := calculate(input)"' ||
  fail "the diagnostic is not on the snippet's line"
echo "ok   helix: the drift diagnostic shows on the snippet's line"
passed=$((passed + 1))

# 1a. The inlay hints (display-inlay-hints, from the README's block): the
#     diff's old and new line numbers before a context line of the patch.
wait_for '71 71 "     defer cancel(ctx)",'
echo "ok   helix: inlay hints show the patch lines' numbers"
passed=$((passed + 1))

# 1b. With the grammar, patch lines are coloured as a diff: the removed
#     line's text differs from a plain JSON string, from an added line and
#     from a file header. Foreground colours are read from the escapes of
#     screen row N, which shows buffer line N.
fg() { # fg ROW WORD: the last foreground colour set before WORD on ROW
  local line pre
  line=$(screen -e -S $(($1 - 1)) -E $(($1 - 1)))
  [[ $line == *"$2"* ]] || fail "row $1 does not show $2"
  pre=${line%%"$2"*}
  grep -oE $'\e\\[(38;5;[0-9]+|3[0-7]|9[0-7])m' <<<"$pre" | tail -n 1
}
if $colours; then
  plain=$(fg 3 'refactor"') header=$(fg 7 'a/internal/api/handler.go"')
  removed=$(fg 12 'result') added=$(fg 13 'result,')
  [[ -n $removed && $removed != "$plain" && $removed != "$added" && $header != "$removed" && $header != "$plain" ]] ||
    fail "diff colours: plain string ${plain@Q}, header ${header@Q}, removed ${removed@Q}, added ${added@Q}; want removed and header apart from a plain string, removed apart from added and header"
  echo "ok   helix: patch lines coloured as a diff (runtime/queries/lreview)"
  passed=$((passed + 1))
else
  echo "helix diff colours skipped: no TS_JSON"
fi

# 2a. From anywhere in the comment: at column 1 of the snippet's line,
#     outside the diagnostic's range, space-a lists the comment's fixes
#     too, the preferred re-anchor fix above Dismiss and Reply.
keys 2 6 G
wait_for_cursor "26:[0-9]+"
keys g h
wait_for_cursor "26:1"
keys Space
keys a
wait_for "Re-anchor c1 to RIGHT 72"
wait_for "Reply to c1"
menu=$(screen)
first=$(grep -nF "Re-anchor c1 to RIGHT 72" <<<"$menu" | head -n 1 | cut -d: -f1)
for other in "Dismiss c1" "Reply to c1"; do
  row=$(grep -nF "$other" <<<"$menu" | head -n 1 | cut -d: -f1)
  [[ -n $row && $first -lt $row ]] || fail "at column 1 the re-anchor fix is not listed above $other"
done
keys Escape
deadline=$((SECONDS + 20))
while screen | grep -qF "Reply to c1"; do
  ((SECONDS < deadline)) || fail "the code action menu did not close"
  sleep 0.1
done
echo "ok   helix: at column 1 of the snippet's line space-a offers the re-anchor fix first"
passed=$((passed + 1))

# 2. Cursor into the snippet value (line 26, end of line, two left: on the
#    closing parenthesis), then space-a lists the fixes.
line=$(sed -n 26p "$fixture")
len=${#line}
keys 2 6 G
wait_for_cursor "26:[0-9]+"
keys g l
wait_for_cursor "26:$len"
keys h h
wait_for_cursor "26:$((len - 2))"

# 2a. space-k hovers: the comment and the diff lines it is anchored to,
#     rendered (no Markdown marks); Escape closes the popup.
keys Space
keys k
wait_for "Comment c1 by assistant"
wait_for "│     result, err := calculate(input)"
if screen | grep -qF '**Comment'; then fail "the hover shows its Markdown marks"; fi
keys Escape
deadline=$((SECONDS + 20))
while screen | grep -qF "Comment c1 by assistant"; do
  ((SECONDS < deadline)) || fail "the hover stays open after Escape"
  sleep 0.1
done
echo "ok   helix: space-k shows the comment's hover with its diff lines"
passed=$((passed + 1))

keys Space
keys a
wait_for "Re-anchor c1 to RIGHT 72"
# The menu highlights its current item in reverse video: move down until
# the re-anchor fix is the one highlighted.
# selected: whether the re-anchor item is drawn in reverse video (SGR 7
# since the last reset before its text).
selected() {
  local line pre
  line=$(screen -e | grep -F "Re-anchor c1 to RIGHT 72") || return 1
  pre=${line%%Re-anchor c1 to RIGHT 72*}
  pre=${pre##*$'\e[0m'}
  [[ $pre == *$'\e[7m'* ]]
}
is_selected=false
for _ in 1 2 3 4 5 6 7 8; do
  if selected; then is_selected=true; break; fi
  before=$(screen -e)
  keys Down
  deadline=$((SECONDS + 10))
  while [[ $(screen -e) == "$before" ]] && ((SECONDS < deadline)); do sleep 0.1; done
done
$is_selected || fail "the re-anchor fix never became the menu's current item"
echo "ok   helix: space-a offers the re-anchor fix"
passed=$((passed + 1))

# 3. Enter applies it; :w saves; the file changed exactly there.
keys Enter
wait_for '"start_line": 72,'
keys : w Enter
wait_for "written"
sed '23s/"start_line": 71,/"start_line": 72,/' "$fixture" >"$tmp/want.json"
if ! cmp -s "$tmp/want.json" "$tmp/work/drift.review.json"; then
  diff "$tmp/want.json" "$tmp/work/drift.review.json" >&2 || true
  fail "the saved file is not the fixture with start_line 72"
fi
echo "ok   helix: the fix is applied and saved (start_line 71 -> 72, nothing else)"
passed=$((passed + 1))
keys : q ! Enter
echo "$passed passed, 0 failed"
# Writing a review by hand: completion, the cursor after "Comment on".
bash "$here/byhand.sh"
