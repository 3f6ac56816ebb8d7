# Sourced by the Helix tests (run.sh, sources.sh, byhand.sh): Helix found
# the way the README says, and the helpers that drive it in a tmux pane.
# The sourcing script sets sock (the tmux server's name, its session
# "hx") and tmp (whose home/ is Helix's HOME).

# find_hx: Helix to run — HX, else /opt/lreview-helix (scripts/install-helix),
# else hx on PATH; empty when there is none.
find_hx() {
  if [[ -n ${HX:-} ]]; then
    echo "$HX"
  elif [[ -x /opt/lreview-helix/bin/hx ]]; then
    echo /opt/lreview-helix/bin/hx
  else
    command -v hx || true
  fi
}

# screen [OPTIONS]: the pane's text (-e: with its colour escapes).
screen() { tmux -L "$sock" capture-pane -p -t hx "$@"; }
# fail MESSAGE: says what failed, with the screen and Helix's log, and exits.
fail() {
  echo "FAIL helix: $1" >&2
  echo "--- screen:" >&2
  screen >&2 || true
  echo "--- helix log:" >&2
  tail -n 20 "$tmp/home/.cache/helix/helix.log" 2>/dev/null >&2 || true
  exit 1
}
# wait_for TEXT [SECONDS]: polls the screen until it shows TEXT.
wait_for() {
  local deadline=$((SECONDS + ${2:-20}))
  while ((SECONDS < deadline)); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "waited ${2:-20}s for: $1"
}
# wait_for_cursor LINE:COL: polls the status line until the cursor is there.
wait_for_cursor() {
  local deadline=$((SECONDS + 20))
  while ((SECONDS < deadline)); do
    screen | grep -qE -- " $1 *\$" && return 0
    sleep 0.1
  done
  fail "waited 20s for the cursor at $1"
}
# keys KEY...: types into Helix.
keys() { tmux -L "$sock" send-keys -t hx "$@"; }
