#!/bin/sh
# Unit checks of runner/tests/tap.sh, no boot (make unit): a script that
# records one pass, one skip and one failure prints them as TAP, closes
# with "1 passed, 1 failed, 1 skipped" and writes its counts; make check's
# closing line sums them, skips included, and fails under CI when a check
# skipped; a skip block runs nothing and prints a skip line per check;
# relayed skips stay skips; Check suites are counted from their output.
#   tap_test.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/lsmconf-tap.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin tap_test.sh "tap: "

# fixture NAME BODY: BODY run by a script of its own that sourced tap.sh,
# its counts in $T/NAME.counts; its output in $T/NAME.out, status in rc.
fixture() {
	LSMCONF_CHECK_COUNTS=$T/$1.counts sh -c ". '$here/tap.sh'; tap_begin $1.sh; $2" \
		> "$T/$1.out" 2>&1
	rc=$?
}
# same WHAT FILE EXPECTED: FILE holds exactly EXPECTED.
same() {
	if [ "$(cat "$2")" = "$3" ]; then
		ok "$1"
	else
		no "$1"
		sed 's/^/#   got: /' "$2"
	fi
}

fixture one 'ok "it ran"; skip "it did not" "no such tool"; no "it broke"; tap_end'
sed '$d' "$T/one.out" > "$T/one.lines"
same "one of each: a TAP line each, the skip with its reason" "$T/one.lines" \
	"ok - it ran
ok - it did not # SKIP no such tool
not ok - it broke"
check "one of each: closes with 1 passed, 1 failed, 1 skipped ($(tail -1 "$T/one.out"))" \
	grep -q '^one.sh: 1 passed, 1 failed, 1 skipped ([0-9]* s)$' "$T/one.out"
check "one of each: the failure fails the script (exit $rc)" [ "$rc" -ne 0 ]
same "one of each: the counts file holds the skip and the totals" "$T/one.counts" \
	"skip	one.sh	it did not	no such tool
total	one.sh	1	1	1"

# make check's closing line, over two scripts.
fixture two 'ok a; ok b; tap_end'
cat "$T/one.counts" "$T/two.counts" > "$T/all"
(CI=''; tap_total "$T/all") > "$T/total" 2>&1
rc=$?
check "total: 3 passed, 1 failed, 1 skipped, per script ($(head -1 "$T/total" | cut -c1-100)...)" \
	grep -q '^make check: 3 passed, 1 failed, 1 skipped (per script, passed/failed/skipped: one.sh 1/1/1, two.sh 2/0/0; ' "$T/total"
check "total: each skip on a line of its own" \
	grep -qx 'make check: skipped: one.sh: it did not: no such tool' "$T/total"
check "total: a failure fails make check (exit $rc)" [ "$rc" -ne 0 ]

# The CI rule: a skip passes outside CI (printed), fails under it.
fixture skips 'ok a; skip b "why not"; tap_end'
(CI=''; tap_total "$T/skips.counts") > "$T/local" 2>&1
rc=$?
check "outside CI a skip is allowed (exit $rc) and printed" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'make check: skipped: skips.sh: b: why not' '$T/local'"
(CI=true; tap_total "$T/skips.counts") > "$T/ci" 2>&1
rc=$?
check "under CI a skip fails make check (exit $rc), naming it" \
	sh -c "[ $rc -ne 0 ] && grep -qx 'make check: skipped: skips.sh: b: why not' '$T/ci' && grep -q 'CI is set and 1 skipped' '$T/ci'"
(CI=true; tap_total "$T/two.counts") > "$T/ci0" 2>&1
rc=$?
check "under CI nothing skipped passes (exit $rc)" [ "$rc" -eq 0 ]
: > "$T/empty"
(CI=''; tap_total "$T/empty") > /dev/null 2>&1
rc=$?
check "no script reported: make check fails (exit $rc)" [ "$rc" -ne 0 ]

# A skip block: nothing runs, every check prints its skip line.
fixture block 'skip_block "no kernel"; skippable touch "'"$T"'/ran"; ok a; no b
	check c touch "'"$T"'/ran"; end_skip_block; ok d; tap_end'
check "skip block: ok, no and check are skips, then counting resumes ($(tail -1 "$T/block.out"))" \
	grep -q '^block.sh: 1 passed, 0 failed, 3 skipped ' "$T/block.out"
check "skip block: each skip names the block's reason" \
	[ "$(grep -c '^ok - [abc] # SKIP no kernel$' "$T/block.out")" -eq 3 ]
check "skip block: skippable and check ran nothing" [ ! -e "$T/ran" ]

# Lines relayed from another script keep their kind.
printf '%s\n' "ok - x" "ok - y # SKIP no plugin" "not ok - z" "# a note" "z.sh: closing" \
	> "$T/child"
fixture relay "tap_relay '$T/child'; tap_end"
check "relay: a skip stays a skip ($(tail -1 "$T/relay.out"))" \
	sh -c "grep -q '^relay.sh: 1 passed, 1 failed, 1 skipped ' '$T/relay.out' && grep -qx '# a note' '$T/relay.out' && grep -q '^skip	relay.sh	y	no plugin$' '$T/relay.counts'"

# A name holding a line break is still one line.
fixture nl 'ok "two
lines"; tap_end'
check "a name with a line break prints on one line" grep -qx 'ok - two lines' "$T/nl.out"

# Check suites, counted from their summary lines: a suite with one
# failure of three, and a test that dies without a summary.
printf '#!/bin/sh\necho "66%%: Checks: 3, Failures: 1, Errors: 0"\nexit 1\n' > "$T/test_a"
printf '#!/bin/sh\nexit 3\n' > "$T/test_b"
chmod +x "$T/test_a" "$T/test_b"
fixture suites "tap_check_suites '$T/test_a' '$T/test_b'"
check "Check suites: 2 passed, 2 failed ($(tail -1 "$T/suites.out"))" \
	sh -c "[ $rc -ne 0 ] && grep -q '^Check suites: 2 passed, 2 failed, 0 skipped ' '$T/suites.out' && grep -q '^total	Check suites	2	2	0$' '$T/suites.counts'"

tap_end
