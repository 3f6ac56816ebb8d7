#!/usr/bin/env bash
# Runs the Vim/Neovim integration tests in headless Neovim.
#   NVIM         Neovim to use (default: /opt/lreview-nvim/bin/nvim, then nvim on PATH)
#   LREVIEW_LSP  path to an lreview-lsp binary; enables test/lsp_spec.lua
#   VIM_BIN      Vim for test/vim_spec.vim (default: vim on PATH; skipped without)
# Prints one line per test and ends with "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
vimdir=$(dirname "$here")

nvim=${NVIM:-}
if [[ -z $nvim ]]; then
  if [[ -x /opt/lreview-nvim/bin/nvim ]]; then
    nvim=/opt/lreview-nvim/bin/nvim
  else
    nvim=$(command -v nvim || true)
  fi
fi
if [[ -z $nvim ]]; then
  echo "vim tests skipped: no nvim"
  exit 0
fi
if ! "$nvim" --headless --clean -u NONE -c 'if !has("nvim-0.10") | cquit! | endif | qall!' >/dev/null 2>&1; then
  echo "vim tests: $nvim does not run or is older than Neovim 0.10" >&2
  exit 1
fi

specs=("$here"/filetype_spec.lua "$here"/syntax_spec.lua "$here"/ftplugin_spec.lua "$here"/client_spec.lua "$here"/doc_spec.lua)
if [[ -n ${LREVIEW_LSP:-} ]]; then
  if [[ ! -x $LREVIEW_LSP ]]; then
    echo "vim tests: LREVIEW_LSP=$LREVIEW_LSP is not executable" >&2
    exit 1
  fi
  specs+=("$here"/lsp_spec.lua "$here"/worktree_spec.lua "$here"/sources_spec.lua "$here"/byhand_spec.lua "$here"/contract_spec.lua "$here"/verdict_spec.lua "$here"/cohorts_spec.lua)
  # vim.lsp.enable() and lsp/*.lua configs exist from Neovim 0.11 on.
  if "$nvim" --headless --clean -u NONE -c 'if !has("nvim-0.11") | cquit! | endif | qall!' >/dev/null 2>&1; then
    specs+=("$here"/enable_spec.lua)
  else
    echo "vim.lsp.enable tests skipped: Neovim older than 0.11"
  fi
fi

passed=0
failed=0
for spec in "${specs[@]}"; do
  echo "== $(basename "$spec")"
  log=$(mktemp)
  # Headless Neovim without user config; the plugin directory goes first in
  # runtimepath before startup so its ftdetect file is sourced.
  LREVIEW_NVIM=$nvim LREVIEW_VIM_DIR=$vimdir LREVIEW_SPEC=$spec timeout 120 "$nvim" --headless --clean -u NONE -i NONE \
    --cmd 'let &runtimepath = $LREVIEW_VIM_DIR . "," . &runtimepath' \
    -c 'lua package.path = vim.env.LREVIEW_VIM_DIR .. "/test/?.lua;" .. package.path' \
    -c 'lua require("harness").run(vim.env.LREVIEW_SPEC)' >"$log" 2>&1
  rc=$?
  grep -v '^RESULT ' "$log"
  result=$(grep '^RESULT ' "$log" | tail -n 1)
  rm -f "$log"
  if [[ -z $result ]]; then
    echo "FAIL $(basename "$spec"): Neovim exited with status $rc before reporting"
    failed=$((failed + 1))
    continue
  fi
  read -r _ p f <<<"$result"
  passed=$((passed + p))
  failed=$((failed + f))
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    echo "FAIL $(basename "$spec"): Neovim exited with status $rc"
    failed=$((failed + 1))
  fi
done
if [[ -z ${LREVIEW_LSP:-} ]]; then
  echo "lsp tests skipped (LREVIEW_LSP unset)"
fi

# The same runtime files in plain Vim, when there is one.
vim_bin=${VIM_BIN:-$(command -v vim || true)}
if [[ -n $vim_bin ]] && "$vim_bin" --version 2>/dev/null | head -n 1 | grep -q '^VIM - Vi IMproved'; then
  echo "== vim_spec.vim"
  results=$(mktemp)
  LREVIEW_VIM_DIR=$vimdir LREVIEW_RESULTS=$results timeout 60 "$vim_bin" -Nu NONE -i NONE -es \
    --cmd 'let &runtimepath = $LREVIEW_VIM_DIR . "," . &runtimepath' \
    -c 'filetype plugin indent on' -c 'syntax on' -S "$here/vim_spec.vim" </dev/null >/dev/null 2>&1
  grep -v '^RESULT ' "$results"
  result=$(grep '^RESULT ' "$results" | tail -n 1)
  rm -f "$results"
  if [[ -z $result ]]; then
    echo "FAIL vim_spec.vim: Vim exited before reporting"
    failed=$((failed + 1))
  else
    read -r _ p f <<<"$result"
    passed=$((passed + p))
    failed=$((failed + f))
  fi
else
  echo "vim (classic) tests skipped: no vim"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
