#!/bin/sh
# The kernel's own tools read what the tests print (e2e.sh runs this on
# its first run's results):
#   kunit_test.sh LSMCONF INSTALL KDIR...
# KDIR is a kernel's results directory (ktap.txt; with guest/whole.ktap,
# of lsmconf run --collection, that too). The kunit.py of the
# tree `lsmconf ksrc` names must parse each KDIR's ktap.txt (exit 0, one
# result per test, all passed) and each test's own KTAP inside it (two
# levels of "# " in: kselftest's runner and the run_kselftest.sh each
# test runs under), with the count of its plan. Then a plain kselftest
# run without lsmconf: run_kselftest.sh of INSTALL (a make install of
# the tests) runs diag_test, which records two decisions with
# LSMCONF_RESULTS unset; the log is judged by lsmconf table (the records
# are "# record: " diagnostics) and parsed by kunit.py.
# Prints "ok - kunit: ..." or "not ok - kunit: ..." per check
# (runner/tests/tap.sh) and closes with "N passed, N failed, N skipped".
set -u
[ $# -ge 3 ] || { echo "usage: $0 LSMCONF INSTALL KDIR..." >&2; exit 2; }
L=$1
install=$2
shift 2
ksrc=$("$L" ksrc) || exit 1
kunit=$ksrc/tools/testing/kunit/kunit.py
[ -r "$kunit" ] || { echo "kunit_test: no $kunit" >&2; exit 1; }
[ -x "$install/run_kselftest.sh" ] || { echo "kunit_test: $install has no run_kselftest.sh" >&2; exit 1; }
fixtures=$(cd "$(dirname "$0")/fixtures/guest-tests" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/lsmconf-kunit.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin kunit_test.sh "kunit: "

# count FILE: "RAN PASSED FAILED SKIPPED" of FILE's own top-level results
# (a "not ok" may be a case the runner explains as a known kernel bug:
# kunit.py must count it as failed, as the KTAP says).
# Lines numbered 0 are the runner's own note of a case that brought the
# kernel down (it never got a number); kunit.py does not count them.
count() {
	awk '/^(not )?ok 0 / { next }
		/^(not )?ok [0-9]+ / { ran++ }
		/^ok [0-9]+ / && !/# SKIP/ { p++ }
		/^ok [0-9]+ .*# SKIP/ { s++ }
		/^not ok [0-9]+ / { f++ }
		END { printf "%d %d %d %d 0\n", ran, p, f, s }' "$1"
}
# kcount FILE: the same four numbers from kunit.py's summary of FILE.
kcount() {
	summary "$1" | awk '{
		for (i = 1; i <= NF; i++) {
			v = $(i + 1); sub(/[,.]$/, "", v)
			if ($i == "Ran") r = v
			if ($i == "passed:") p = v
			if ($i == "failed:") f = v
			if ($i == "skipped:") s = v
			if ($i == "errors:") e = v
		}
		printf "%d %d %d %d %d\n", r, p, f, s, e }'
}
# ran FILE N: kunit.py parse FILE ran N tests, with no parse errors, and
# counts passed, failed and skipped as the KTAP's own results do (its
# exit status says whether a test failed: a known kernel bug's case is a
# failed case, so the status alone is not the check).
# (kunit.py reads FILE from another directory: FILE is absolute.)
ran() {
	timeout -k 5 120 python3 "$kunit" parse --summary "$1" > "$1.kunit" 2>&1
	[ -n "$(summary "$1")" ] &&
		[ "$(kcount "$1" | cut -d' ' -f1)" = "$2" ] &&
		[ "$(kcount "$1")" = "$(count "$1")" ]
}
# summary FILE: kunit.py's summary line of FILE, without its time.
summary() { sed -n 's/^\[[0-9:]*\] Testing complete\. //p' "$1.kunit"; }
# judge NAME FILE N
judge() {
	if ran "$2" "$3"; then
		ok "$1: $(summary "$2")"
	else
		no "$1: kunit.py parse did not run $3 tests as the KTAP counts them ($(count "$2" | awk '{ printf "passed %s, failed %s, skipped %s", $2, $3, $4 }')): $(summary "$2")"
		tail -3 "$2.kunit" | sed 's/^/#   /'
	fi
}

# log LABEL FILE: FILE (a ktap.txt, or a whole run_kselftest.sh -c
# output) and each test's own KTAP in it, as $FILE.NAME.ktap.
log() {
	n=$(grep -Ec '^(not )?ok [0-9]+ selftests: ' "$2")
	judge "$1 ($n tests)" "$2" "$n"
	# Each test's own KTAP: its section of the log, up to kselftest's
	# runner's result for it, two "# " levels off in ktap.txt, one in
	# run_kselftest.sh's own output (a result line may end in a
	# directive: "# exit=1", "# SKIP").
	for t in $(sed -n 's/^\(not \)\{0,1\}ok [0-9]* selftests: \([a-z]*: [a-z0-9_]*\)\( #.*\)\{0,1\}$/\2/p' "$2" | tr -d ' '); do
		name="selftests: ${t%%:*}: ${t#*:}"
		f=$2.${t#*:}.ktap
		# A test the runner resumed after a crash ran without kselftest's
		# runner: one "# " level in, and no inner result line.
		awk -v t="$name" '$0 == "# " t { on = 1; next }
			on && $0 ~ ("^(# )?(not )?ok [0-9]+ " t "( #|$)") { on = 0 }
			on { l[++n] = $0; if ($0 ~ /^# # TAP version/) two = 1 }
			END { for (i = 1; i <= n; i++) {
				s = l[i]
				if (two ? sub(/^# # /, "", s) : sub(/^# /, "", s))
					print s } }' \
			"$2" > "$f"
		n=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$f" | head -1)
		judge "$k ${t#*:} (plan 1..${n:-none})" "$f" "${n:-none}"
	done
}

i=0
for d in "$@"; do
	i=$((i + 1))
	k=${d%/}
	k=${k##*/}
	cp "$d/ktap.txt" "$T/$i.ktap"
	log "$k ktap.txt" "$T/$i.ktap"
	# lsmconf run --collection: what run_kselftest.sh -c printed, as a
	# kselftest user gets it. Each test's counts there must be those of
	# lsmconf's ktap.txt (what lsmconf reported).
	[ -r "$d/guest/whole.ktap" ] || continue
	cp "$d/guest/whole.ktap" "$T/$i.whole"
	log "$k run_kselftest.sh -c output" "$T/$i.whole"
	same=0
	differ=
	for f in "$T/$i".whole.*.ktap; do
		t=${f#"$T/$i".whole.}
		if [ "$(count "$f")" = "$(count "$T/$i.ktap.$t")" ]; then
			same=$((same + 1))
		else
			differ="$differ ${t%.ktap}"
		fi
	done
	if [ -z "$differ" ] && [ "$same" -gt 0 ]; then
		ok "$k: each of the $same tests of run_kselftest.sh -c counts as lsmconf reported it"
	else
		no "$k: run_kselftest.sh -c and lsmconf's ktap.txt count differently:${differ:- no tests}"
	fi
done

# A plain kselftest run: the kernel's run_kselftest.sh and an install
# holding one test directory, diag/.
S=$ksrc/tools/testing/selftests
mkdir -p "$T/inst/diag"
cp -R "$install/run_kselftest.sh" "$install/kselftest" "$T/inst/"
echo diag:diag_test > "$T/inst/kselftest-list.txt"
cc -static -O2 -I"$S" -I"$top/selftests" -o "$T/inst/diag/diag_test" \
	"$fixtures/diag_test.c" 2> "$T/cc.err" || { no "diag_test builds"; cat "$T/cc.err"; }
# A pipe, not a file: the runner reopens its output, which would write
# over a file from its start.
(cd "$T/inst" && env -u LSMCONF_RESULTS -u LSM_SELFTEST_RECORDS \
	timeout -k 5 120 ./run_kselftest.sh 2>&1 | cat > "$T/plain.log")
if grep -q '^# # record: diag_test/global.two_decisions/peer.send	' "$T/plain.log"; then
	ok "plain run_kselftest.sh log: records as \"# # record: \" diagnostics"
else
	no "plain run_kselftest.sh log: records as \"# # record: \" diagnostics"
	sed 's/^/#   /' "$T/plain.log" | tail -5
fi
if "$L" table --out "$T/table.md" "$T/plain.log" 2> "$T/table.err" && [ ! -s "$T/table.err" ]; then
	ok "lsmconf table reads the plain log (exit 0, nothing malformed)"
else
	no "lsmconf table reads the plain log: $(head -1 "$T/table.err")"
fi
judge "plain run_kselftest.sh log (1 test)" "$T/plain.log" 1
# The same log without records: one line, non-zero.
grep -v 'record: ' "$T/plain.log" > "$T/norec.log"
if "$L" table "$T/norec.log" > /dev/null 2> "$T/norec.err"; then
	no "a log without records: lsmconf table fails"
elif [ "$(wc -l < "$T/norec.err")" -eq 1 ] && grep -q 'holds no "# record: " lines' "$T/norec.err"; then
	ok "a log without records: lsmconf table fails, one line"
else
	no "a log without records: lsmconf table fails, one line: $(head -2 "$T/norec.err")"
fi
tap_end
