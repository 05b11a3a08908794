#!/bin/sh
# The kernel's scripts/checkpatch.pl --strict over every file of the
# suites, as upstream review would run it: prints the counts and each
# error and warning; exit 1 unless there are 0 errors and 0 warnings.
# Usage: runner/checkpatch.sh KSRC FILE...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KSRC FILE..." >&2; exit 2; }
cp="$1/scripts/checkpatch.pl"
shift
[ -x "$cp" ] || { echo "checkpatch: no $cp (make build/ksrc, or KSRC=)" >&2; exit 1; }
out=$(mktemp)
# checkpatch leaves its camelcase cache in the working directory.
trap 'rm -f "$out" .checkpatch-camelcase.git.' EXIT
# checkpatch exits 1 on any finding; the counts below decide.
"$cp" --strict --no-tree --no-summary --terse --show-types -f "$@" > "$out" 2>&1 || :
e=$(grep -c ': ERROR:' "$out" || :)
w=$(grep -c ': WARNING:' "$out" || :)
c=$(grep -c ': CHECK:' "$out" || :)
grep -E ': (ERROR|WARNING):' "$out" || :
echo "checkpatch: $e errors, $w warnings, $c checks"
[ "$e" -eq 0 ] && [ "$w" -eq 0 ]
