#!/usr/bin/env bash
# End-to-end tests of the Emacs integration in a real Emacs (29 or newer)
# in batch mode: lreview-mode, its diff faces, and eglot against the real
# server (Flymake diagnostic, preferred code action).
#   EMACS        Emacs to run (default: emacs on PATH)
#   LREVIEW_LSP  the lreview-lsp binary under test (required)
#   TS_JSON      tree-sitter's JSON grammar (scripts/build-json-grammar): the suite
#                runs a second time with it, on json-ts-mode
#   CI           when set, a missing Emacs or TS_JSON fails instead of skipping
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

emacs=${EMACS:-$(command -v emacs || true)}
if [[ -z $emacs || ! -x $emacs ]]; then
  if [[ -n ${CI:-} ]]; then
    echo "emacs tests: no Emacs (sh scripts/install-emacs); CI is set: failing instead of skipping" >&2
    exit 1
  fi
  echo "emacs tests skipped: no Emacs (install it with: sh scripts/install-emacs)"
  exit 0
fi
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "emacs tests: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

# An isolated Emacs: -Q reads no init file; HOME keeps eglot's and
# Flymake's state out of the user's. The README's install steps are laid
# out there as a user has them: the checkout as ~/src/lreview-lsp, the
# server as ~/go/bin/lreview-lsp, where `go install` puts it.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/src" "$home/go/bin"
ln -s "$(cd "$here/../../.." && pwd)" "$home/src/lreview-lsp"
ln -s "$LREVIEW_LSP" "$home/go/bin/lreview-lsp"
echo "== $("$emacs" --version | head -n 1)"
# The mode must byte-compile without warnings, as package managers do it
# (in a copy, so that no .elc is left beside the source).
mkdir -p "$home/compile"
cp "$(dirname "$here")/lreview-mode.el" "$home/compile/"
HOME=$home timeout 60 "$emacs" -Q --batch -L "$home/compile" \
  --eval '(setq byte-compile-error-on-warn t)' \
  --eval "(unless (byte-compile-file \"$home/compile/lreview-mode.el\") (kill-emacs 1))" </dev/null
# The suite runs as a user's Emacs starts, less the init file (-q, not
# -Q): the system's site files and packages (markdown-mode) are there.
run_suite() { # run_suite GRAMMAR (json-ts when the grammar is installed)
  HOME=$home LREVIEW_LSP=$LREVIEW_LSP LREVIEW_TEST_GRAMMAR=$1 timeout 180 "$emacs" -q --batch \
    -l "$here/lreview-mode-test.el" -f ert-run-tests-batch-and-exit </dev/null
}
echo "== lreview-mode on js-json-mode (no JSON grammar)"
run_suite ""
if [[ -n ${TS_JSON:-} ]]; then
  [[ -f $TS_JSON ]] || { echo "emacs tests: TS_JSON=$TS_JSON is not a file" >&2; exit 1; }
  # Where the README's step 3 puts it, and Emacs looks.
  mkdir -p "$home/.emacs.d/tree-sitter"
  cp "$TS_JSON" "$home/.emacs.d/tree-sitter/libtree-sitter-json.so"
  echo "== lreview-mode on json-ts-mode (TS_JSON in ~/.emacs.d/tree-sitter)"
  run_suite json-ts
elif [[ -n ${CI:-} ]]; then
  echo "emacs tests: TS_JSON is unset (sh scripts/build-json-grammar); CI is set: failing instead of skipping json-ts-mode" >&2
  exit 1
else
  echo "emacs json-ts-mode tests skipped: no TS_JSON"
fi
