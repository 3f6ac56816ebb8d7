#!/bin/sh
# validate.sh BIN — writes the SARIF that `BIN check --format sarif` makes
# of the examples and of the review files in check's golden archives (a
# log over the examples, one over the golden reviews and one for each, one
# with a file that cannot be read), and
# has Microsoft's SARIF multitool (installed here by `npm ci`, pinned in
# package-lock.json) validate them. Any error or warning it reports fails;
# its notes are advice (rule ids in another style, URIs it cannot reach
# offline: see them with --level "Error;Warning;Note").
set -eu
bin=$1
# The multitool is a .NET program: without ICU it would refuse to start.
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="${DOTNET_SYSTEM_GLOBALIZATION_INVARIANT:-1}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
multitool=$(cd "$here" && node -p "require('@microsoft/sarif-multitool')")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/reviews" "$work/sarif"

# The review files of check's golden archives (txtar: "-- NAME --" starts a
# section), each as its own file.
for archive in "$root"/cmd/lreview-lsp/testdata/check-*.txtar; do
	base=$(basename "$archive" .txtar)
	awk -v dir="$work/reviews" -v base="$base" '
		/^-- .* --$/ {
			name = substr($0, 4, length($0) - 6)
			out = ""
			if (name ~ /\.json$/ && name !~ /^out\//) { n++; out = dir "/" base "-" n ".review.json" }
			next
		}
		out != "" { print > out }
	' "$archive"
done

set -- "$root"/examples/*.review.json
status=0
"$bin" check --format sarif "$@" >"$work/sarif/examples.sarif" || status=$?
[ "$status" -le 1 ] || { echo "test-sarif: check over the examples exited $status" >&2; exit 1; }
status=0
"$bin" check --format sarif "$work"/reviews/*.review.json >"$work/sarif/goldens.sarif" 2>/dev/null || status=$?
[ "$status" -le 1 ] || { echo "test-sarif: check over the golden reviews exited $status" >&2; exit 1; }
for review in "$work"/reviews/*.review.json; do
	status=0
	"$bin" check --format sarif "$review" >"$work/sarif/$(basename "$review" .review.json).sarif" || status=$?
	[ "$status" -le 1 ] || { echo "test-sarif: check $review exited $status" >&2; exit 1; }
done
status=0
"$bin" check --format sarif "$1" "$work/missing.review.json" >"$work/sarif/failed-read.sarif" 2>/dev/null || status=$?
[ "$status" -eq 2 ] || { echo "test-sarif: check over a missing file exited $status, want 2" >&2; exit 1; }

# At its default --level (Error;Warning) it prints and logs no notes. It
# runs without a network where it can (unshare needs root or user
# namespaces): its one rule that fetches, SARIF2006 (URIs reachable, a
# note), then sends nothing out.
offline=
if unshare -n true 2>/dev/null; then
	offline="unshare -n"
fi
status=0
$offline "$multitool" validate --output "$work/validation.sarif" "$work"/sarif/*.sarif || status=$?
[ "$status" -eq 0 ] || { echo "test-sarif: the SARIF multitool exited $status" >&2; exit 1; }
# The validation log holds what the default --level keeps: errors and
# warnings, as results, and the tool's own failures as notifications.
node - "$work/validation.sarif" <<'JS'
const log = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
let problems = 0;
for (const run of log.runs) {
  problems += (run.results || []).length;
  for (const inv of run.invocations || []) {
    if (!inv.executionSuccessful) problems++;
    for (const n of inv.toolExecutionNotifications || []) {
      if (n.level !== 'note' && n.level !== 'none') problems++;
    }
  }
}
if (problems > 0) {
  console.error(`test-sarif: the SARIF multitool reports ${problems} error(s) or warning(s) (above)`);
  process.exit(1);
}
console.log('test-sarif: the SARIF multitool reports 0 errors and 0 warnings');
JS
