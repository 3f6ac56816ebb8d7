#!/usr/bin/env bash
# The plugin installed the way a Neovim user installs it: vim.pack.add
# (Neovim 0.12) from a clone of the repository by a file:// URL, the build
# step run from a PackChanged autocommand as the README says — with Go it
# installs the server into a fresh GOBIN — then a review opened in that
# Neovim: its diagnostics, and :checkhealth lreview naming the server, how
# it was found and its version. Last, the build step where Go is not
# installed: it says where the release binaries are.
#   NVIM  Neovim 0.12 or newer (default /opt/lreview-nvim-sid/bin/nvim)
# Ends with "N passed, N failed"; without such a Neovim it is skipped,
# except under CI.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
nvim=${NVIM:-/opt/lreview-nvim-sid/bin/nvim}
if ! [[ -x $nvim ]] || ! "$nvim" --headless --clean -u NONE -c 'if !has("nvim-0.12") | cquit! | endif | qall!' >/dev/null 2>&1; then
  if [[ -n ${CI:-} ]]; then
    echo "pack install test: no Neovim 0.12 at $nvim under CI (sh scripts/install-nvim /opt/lreview-nvim-sid sid)" >&2
    exit 1
  fi
  echo "pack install test skipped: no Neovim 0.12 at $nvim (sh scripts/install-nvim /opt/lreview-nvim-sid sid)"
  exit 0
fi
go=$(command -v go) || { echo "pack install test: go not found" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The repository as it is now, edits and new files included, committed in
# a repository of its own: what a user's clone would hold.
src=$tmp/src/lreview-lsp
mkdir -p "$src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$src"
git -C "$src" init -q -b main
git -C "$src" add -A
git -C "$src" -c user.name=test -c user.email=test@example.com commit -qm "the plugin under test"

# A new user: nothing in HOME, Neovim's directories empty, Go's caches
# shared with this machine (a module download is not what is tested).
mkdir -p "$tmp/home" "$tmp/config/nvim" "$tmp/gobin"
# Go's caches are the user's, read before HOME and XDG_CACHE_HOME change
# (after, GOCACHE would be an empty folder under $tmp: every package
# compiled again, a minute and a half).
gocache=$("$go" env GOCACHE) gomodcache=$("$go" env GOMODCACHE)
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache
export GOBIN=$tmp/gobin GOCACHE=$gocache GOMODCACHE=$gomodcache GOPATH=$tmp/gopath
export LREVIEW_SRC=$src LREVIEW_REVIEW=$tmp/drift.review.json
cp "$here/fixtures/drift.review.json" "$LREVIEW_REVIEW"
# The user's init.lua, as the README writes it.
cat >"$XDG_CONFIG_HOME/nvim/init.lua" <<'LUA'
vim.api.nvim_create_autocmd('PackChanged', { callback = function(ev)
  local d = ev.data
  if d.kind ~= 'delete' and vim.uv.fs_stat(d.path .. '/editors/vim/lua/lreview/build.lua') then dofile(d.path .. '/build.lua') end
end })
-- A name of the user's own, not the repository's: the build step runs all the same.
vim.pack.add({ { src = 'file://' .. vim.env.LREVIEW_SRC, name = 'lreview' } }, { confirm = false })
LUA

log=$tmp/nvim.log
export LREVIEW_RESULTS=$tmp/results
timeout 300 "$nvim" --headless -i NONE -c "luafile $here/pack_check.lua" >"$log" 2>&1
rc=$?
# Neovim's messages (the install's progress, the build step's), then the checks.
tr '\r' '\n' <"$log" | grep -v '^$' | sed 's/^/  nvim: /'
touch "$LREVIEW_RESULTS"
grep -v '^DONE' "$LREVIEW_RESULTS"
passed=$(grep -c '^ok ' "$LREVIEW_RESULTS")
failed=$(grep -c '^FAIL ' "$LREVIEW_RESULTS")
if ! grep -q '^DONE' "$LREVIEW_RESULTS"; then
  echo "FAIL Neovim exited with status $rc before finishing"
  failed=$((failed + 1))
fi

# The build step without Go: the release binaries.
nogo=/usr/bin:/bin
if PATH=$nogo command -v go >/dev/null; then
  echo "build step without Go skipped: go is in $nogo"
else
  out=$(PATH=$nogo timeout 60 "$nvim" --headless --clean -u NONE -i NONE \
    -c "lua dofile(vim.env.LREVIEW_SRC .. '/build.lua')" -c 'qall!' 2>&1)
  if [[ $out == *"Go is not installed"*"github.com/leanreview/lreview-lsp/releases"* ]]; then
    echo "ok   without Go the build step names the release binaries"
    passed=$((passed + 1))
  else
    echo "FAIL without Go the build step said: $out"
    failed=$((failed + 1))
  fi
  # Without Go, the server on PATH already (a release binary): the build
  # step says it uses it, not that it is missing.
  mkdir -p "$tmp/onpath"
  cp "${LREVIEW_LSP:-$GOBIN/lreview-lsp}" "$tmp/onpath/lreview-lsp" 2>/dev/null
  out=$(PATH=$tmp/onpath:$nogo timeout 60 "$nvim" --headless --clean -u NONE -i NONE \
    -c "lua dofile(vim.env.LREVIEW_SRC .. '/build.lua')" -c 'qall!' 2>&1)
  if [[ $out == *"using $tmp/onpath/lreview-lsp, on PATH"* && $out != *"not built"* ]]; then
    echo "ok   without Go, a server on PATH is the one used"
    passed=$((passed + 1))
  else
    echo "FAIL without Go, with the server on PATH, the build step said: $out"
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
