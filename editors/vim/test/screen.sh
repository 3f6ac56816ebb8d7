#!/usr/bin/env bash
# Neovim as a person sees it: its interface (not headless) under tmux,
# the screen read back. A repository holding a review on disk and the Go
# file it reviews; Neovim starts its interface (the newest Neovim starts
# it as a child `nvim --embed`), shows the comments on the Go file,
# hovers a commented line (the float is Markdown: its parser must be
# there), then a body of the review is typed into in Insert mode — the
# source's comments are published again meanwhile — `:w`, back to the Go
# file with `:b`: its comments are on the screen, not only in
# vim.diagnostic.get().
#   NVIM         Neovim (default /opt/lreview-nvim/bin/nvim)
#   LREVIEW_LSP  the server
# Ends with "N passed, N failed"; without tmux it is skipped, except under CI.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
vimdir=$(dirname "$here")
nvim=${NVIM:-/opt/lreview-nvim/bin/nvim}
if ! command -v tmux >/dev/null; then
  [[ -n ${CI:-} ]] && { echo "neovim screen test: no tmux (CI is set)" >&2; exit 1; }
  echo "neovim screen test skipped: no tmux"
  exit 0
fi
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "neovim screen test: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

tmp=$(mktemp -d)
sock="lreview-nvim-screen-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$tmp"
}
[[ -n ${KEEP:-} ]] || trap cleanup EXIT
screen() { tmux -L "$sock" capture-pane -p -t nv "$@"; }
passed=0
fail() {
  echo "FAIL neovim screen ($($nvim --version | head -n 1)): $1" >&2
  echo "--- screen:" >&2
  screen >&2 || true
  echo "--- messages:" >&2
  cat "$tmp/messages" 2>/dev/null >&2 || true
  echo "$passed passed, 1 failed"
  exit 1
}
wait_for() {
  local deadline=$((SECONDS + ${2:-30}))
  while ((SECONDS < deadline)); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "waited ${2:-30}s for: $1"
}
keys() { tmux -L "$sock" send-keys -t nv "$@"; }
ok() { echo "ok   neovim screen: $1"; passed=$((passed + 1)); }

work=$tmp/work
mkdir -p "$work/.git" "$work/internal/api" "$work/reviews" "$tmp/config/nvim" "$tmp/data" "$tmp/state"
echo 'ref: refs/heads/main' >"$work/.git/HEAD"
cp "$here/fixtures/worktree.review.json" "$work/reviews/handler.review.json"
{
  echo 'package api'
  for i in $(seq 2 69); do echo "// line $i"; done
  printf '%s\n' '    ctx := context.Background()' '    defer cancel(ctx)' '    result, err := calculate(input)' '    _ = err // 🚀 later' '    return result, nil' '}'
} >"$work/internal/api/handler.go"
# The user's init.lua: the plugin, the server, the comments' text on their
# lines (Neovim 0.11+ shows none by default); :messages kept for a failure.
cat >"$tmp/config/nvim/init.lua" <<LUA
vim.opt.runtimepath:prepend('$vimdir')
vim.diagnostic.config({ virtual_text = true, signs = true })
require('lreview').setup({ cmd = { '$LREVIEW_LSP', '--stdio' } })
vim.api.nvim_create_autocmd('VimLeavePre', { callback = function()
  vim.fn.writefile(vim.split(vim.fn.execute('messages'), '\n'), '$tmp/messages')
end })
LUA
env=(env HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" TERM=xterm-256color)
tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 45 -s nv \
  "cd '$work' && ${env[*]@Q} '$nvim' -i NONE +72 internal/api/handler.go; echo 'NVIM EXITED'; sleep 60"

wait_for "handler.go" 20
screen | grep -q "NVIM EXITED\|unrecognized option" && fail "Neovim's interface did not start"
ok "the interface starts"

wait_for "c1: Return the error"
ok "c1 shows on line 72 of the Go file"

# The hover: the thread in a Markdown float, no parser error.
keys K
wait_for "The old call ignored errors."
if screen | grep -qiE "parser could not be created|error executing"; then fail "the hover reported an error"; fi
ok "the hover shows the thread as Markdown"
keys Escape Escape

# A body of the review typed into in Insert mode: the Go file's comments
# are published again while Insert mode lasts.
keys : e Space reviews/handler.review.json Enter
wait_for "handler.review.json"
keys / "Return the error" Enter
keys i
keys -l "Please "
sleep 1
keys Escape
keys : w Enter
wait_for "written"
keys : b Space handler.go Enter
wait_for "result, err := calculate(input)"
wait_for "c1: Please Return the error"
ok "after typing in the review and :w, :b shows the Go file's comments (the new text)"

keys : q a ! Enter
echo "$passed passed, 0 failed"
