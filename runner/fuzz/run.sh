#!/bin/sh
# Runs each libFuzzer harness for a while (make fuzz, make fuzz-short):
#   run.sh SECONDS OUT NAME...
# OUT/fuzz_NAME is the harness; new inputs go to OUT/corpus/NAME, the
# committed seeds in runner/fuzz/corpus/NAME are only read. Prints one line
# per harness (executions, coverage; runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped"; a crash, leak or timeout is written to
# OUT/NAME-crash-* and fails the run, after every harness has run.
set -eu

[ "$#" -ge 3 ] || {
	echo "usage: run.sh SECONDS OUT NAME..." >&2
	exit 2
}
secs=$1
out=$2
shift 2
seeds=$(dirname "$0")/corpus
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/../tests/tap.sh"
tap_begin fuzz "fuzz "
for f; do
	mkdir -p "$out/corpus/$f"
	log=$out/$f.log
	# One input may take 10 s at most; 1 GB of memory at most.
	if "$out/fuzz_$f" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$out/$f-crash-" \
		"$out/corpus/$f" "$seeds/$f" > "$log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(sed -n 's/^#[0-9]*.*DONE *cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1 ft \2/p' "$log")
		corp=$(find "$out/corpus/$f" "$seeds/$f" -type f | wc -l)
		ok "$f: $secs s, $execs execs, $cov, $corp inputs"
	else
		grep -E '^(==[0-9]+==|SUMMARY|artifact_prefix)' "$log" >&2 || :
		no "$f: FAILED, see $log"
	fi
done
tap_end
