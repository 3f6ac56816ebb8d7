#!/usr/bin/env bash
# End-to-end tests of the Emacs integration in a real Emacs (29 or newer)
# in batch mode: lreview-mode, its diff faces, and eglot against the real
# server (Flymake diagnostic, preferred code action).
#   EMACS        Emacs to run (default: emacs on PATH)
#   LREVIEW_LSP  the lreview-lsp binary under test (required)
#   CI           when set, a missing Emacs fails instead of skipping
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

emacs=${EMACS:-$(command -v emacs || true)}
if [[ -z $emacs || ! -x $emacs ]]; then
  if [[ -n ${CI:-} ]]; then
    echo "emacs tests: no Emacs (sh ../shared/tools/install-emacs); CI is set: failing instead of skipping" >&2
    exit 1
  fi
  echo "emacs tests skipped: no Emacs (install it with: sh ../shared/tools/install-emacs)"
  exit 0
fi
[[ -n ${LREVIEW_LSP:-} && -x ${LREVIEW_LSP:-} ]] || { echo "emacs tests: LREVIEW_LSP must name the lreview-lsp binary" >&2; exit 1; }

# An isolated Emacs: -Q reads no init file; HOME keeps eglot's and
# Flymake's state out of the user's.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
echo "== $("$emacs" --version | head -n 1)"
# The mode must byte-compile without warnings, as package managers do it.
HOME=$home timeout 60 "$emacs" -Q --batch -L "$(dirname "$here")" \
  --eval '(setq byte-compile-error-on-warn t)' \
  --eval "(unless (byte-compile-file \"$(dirname "$here")/lreview-mode.el\") (kill-emacs 1))" </dev/null
rm -f "$(dirname "$here")/lreview-mode.elc"
HOME=$home LREVIEW_LSP=$LREVIEW_LSP timeout 120 "$emacs" -Q --batch \
  -l "$here/lreview-mode-test.el" -f ert-run-tests-batch-and-exit </dev/null
