#!/bin/sh
# lsmconf series judging its kernels, without a boot: the results of its
# units are written by hand into a store, as the units would leave them,
# for fixtures/series/comments-only (3 patches) under a known bugs list
# of the fixture's own that names the base by its build name.
#  1. The base shows a listed bug (its run passes by the list); the tip,
#     which the list does not name, shows it the same way (its run
#     fails): the outcome is the same on both sides, so no patch is
#     blamed, exit 0 (a comparison judges change, not names).
#  2. The tip's first boot lost a decision (recorded on one side only):
#     it decides nothing alone, the tip is booted again; the second boot
#     is whole and nothing repeats: "inconclusive at patch 3", exit 1.
#  3. The same, but the second boot lost it too: the change repeats,
#     and the bisection goes on to kernel 1.
#   series_confirm_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
t=$(mktemp -d /tmp/lsmconf-series-confirm.XXXXXX)
trap 'rm -rf "$t"' EXIT
# Its own cache: the series is read into it, nothing is fetched.
LSMCONF_CACHE=$t/cache
export LSMCONF_CACHE
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin series_confirm_test.sh "series confirm: "
cd "$root"

# The bug: a decision the model says allow, the kernel EACCES; listed for
# the unpatched build only, by its exact name.
base_name=build:linux-source-7.2_7.2.13-1
cat > "$t/known" << EOF2
bug: fixture-bug
kernels: $base_name
cases: t_test/f.bug
decisions: t_test/f.bug/op
observed: EACCES
fatal: -
trace: -
function: none (a fixture)
evidence: series_confirm_test.sh
reproduce: runner/tests/series_confirm_test.sh
report: -
EOF2
rec() { printf '%s\t5.0\ts\to\tdgram\t-\top\t-\t%s\t%s\n' "$1" "$2" "$3"; }

plan() {
	"$lsmconf" plan --store "$1" series --results "$t/results-${1##*/}" \
		--lsm apparmor --cost "" --known-bugs "$t/known" \
		--test unix_peer_test debian-source:7.2 fixtures/series/comments-only
}
# The id of the unit whose description is $2 in store $1.
id_of() { grep " -- $2\$" "$1/plan.tsv" | cut -d' ' -f1; }
finish() {
	mkdir -p "$1/units/$2"
	printf 'seconds 1.0\nhost test\nattempt none\n' > "$1/units/$2/done"
	printf '%s' "$4" > "$1/units/$2/$3"
}
built() {
	finish "$1" "$2" kernel.tsv "status ok
package build $3
release 7.2.13-lsmconf-$3
image_sha256 $3
"
}
# booted STORE ID NAME KNOWN_NAME VERDICT [LOSE]: a boot of the suite
# (one test, t_test, two cases: f.ok passes, f.bug fails with the bug);
# with LOSE, f.ok's decision is lost (the case never reported).
booted() {
	d=$1/units/$2/$3-apparmor
	finish "$1" "$2" verdict "$5
"
	mkdir -p "$d/guest"
	echo "7.2.13-lsmconf-$3" > "$d/guest/uname"
	printf 'spec\tbuild:x\nuname\t7.2.13-lsmconf-%s\nupstream\t7.2.13\nknown_name\t%s\nknown_base\t%s\nsuite\tapparmor\ndecisions\t2\nverdict\t%s\n' \
		"$3" "$4" "$base_name" "$5" > "$d/kernel.txt"
	{
		printf 'TAP version 13\n1..1\n# selftests: apparmor: t_test\n'
		printf '# # TAP version 13\n# # 1..2\n'
		[ -n "${6:-}" ] || printf '# # ok 1 f.ok\n'
		printf '# # not ok 2 f.bug\n'
		printf '# not ok 1 selftests: apparmor: t_test # exit=1\n'
		if [ "$5" = PASS ]; then
			printf 'ok 1 selftests: apparmor: t_test\n'
		else
			printf 'not ok 1 selftests: apparmor: t_test\n'
		fi
	} > "$d/ktap.txt"
	{
		printf 'id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\tobserved\n'
		rec t_test/f.bug/op allow EACCES
		[ -n "${6:-}" ] || rec t_test/f.ok/op allow allow
	} > "$d/records.tsv"
}

# 1. Alike on both sides: no culprit.
S=$t/alike
plan "$S" > /dev/null 2> "$t/err"
built "$S" "$(id_of "$S" "build the base debian-source:7.2")" base
booted "$S" "$(id_of "$S" "boot base")" base "$base_name" PASS
built "$S" "$(id_of "$S" "build kernel 3 (base + patches 1-3)")" k3
booted "$S" "$(id_of "$S" "boot kernel-3")" kernel-3 "$base_name+0123456789ab" FAIL
rc=0
"$lsmconf" merge --store "$S" > "$t/m1" 2>&1 || rc=$?
check "a listed bug on the base, the same outcome on the unlisted tip: exit $rc, no culprit" \
	eval '[ $rc -eq 0 ] && grep -q "^Culprits: none" "$t/results-alike/latest/report.txt"'
check "the tip's failure is not a patch's: decisions same, no failed case" \
	eval 'grep -q "^ 3 yes yes same " "$t/results-alike/latest/report.txt"'

# 2. The tip's first boot lost a decision; its second is whole.
S=$t/ghost
plan "$S" > /dev/null 2>> "$t/err"
built "$S" "$(id_of "$S" "build the base debian-source:7.2")" base
booted "$S" "$(id_of "$S" "boot base")" base "$base_name" PASS
built "$S" "$(id_of "$S" "build kernel 3 (base + patches 1-3)")" k3
booted "$S" "$(id_of "$S" "boot kernel-3")" kernel-3 "$base_name+0123456789ab" FAIL lose
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
again=$(id_of "$S" "boot kernel-3-again1")
check "a lost decision decides nothing alone: the tip boots again" \
	eval '[ -n "$again" ] && [ "$(cat "$t/ready")" = "$again" ]'
booted "$S" "$again" kernel-3-again1 "$base_name+0123456789ab" FAIL
rc=0
"$lsmconf" merge --store "$S" > "$t/m2" 2>&1 || rc=$?
check "nothing repeats: exit $rc, inconclusive at patch 3, no patch named" \
	eval '[ $rc -eq 1 ] && grep -q "inconclusive at patch 3/3" "$t/results-ghost/latest/report.txt" && ! grep -q "^  decisions changed: patch" "$t/results-ghost/latest/report.txt"'

# 3. Lost in both boots: it repeats, kernel 1 is next.
S=$t/real
plan "$S" > /dev/null 2>> "$t/err"
built "$S" "$(id_of "$S" "build the base debian-source:7.2")" base
booted "$S" "$(id_of "$S" "boot base")" base "$base_name" PASS
built "$S" "$(id_of "$S" "build kernel 3 (base + patches 1-3)")" k3
booted "$S" "$(id_of "$S" "boot kernel-3")" kernel-3 "$base_name+0123456789ab" FAIL lose
"$lsmconf" plan --store "$S" --ready > /dev/null 2>> "$t/err"
booted "$S" "$(id_of "$S" "boot kernel-3-again1")" kernel-3-again1 "$base_name+0123456789ab" FAIL lose
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
check "the lost decision repeats: the bisection goes on to kernel 1" \
	eval '[ "$(cat "$t/ready")" = "$(id_of "$S" "build kernel 1 (base + patches 1-1)")" ]'
if [ "$tap_fail" -ne 0 ]; then
	sed 's/^/# /' "$t/err" "$t/m1" "$t/m2"
fi
tap_end
