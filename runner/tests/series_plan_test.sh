#!/bin/sh
# lsmconf series as a plan that grows with its results, without a boot:
# the results of its units are written by hand into a store, as the
# units would leave them, and each replay must plan the kernel the
# bisection asks for next. fixtures/series/third-does-not-apply (3
# patches): the tip is refused at patch 3, kernel 2 does not build, so
# kernel 1 is next; with it observed, the bisection is over and merge
# writes the report. Also: two stores plan the same ids, a store whose
# first units are not this lsmconf's is refused, a unit whose build is
# not done exits 2, a boot done without its results is refused.
#   series_plan_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
t=$(mktemp -d /tmp/lsmconf-series-plan.XXXXXX)
trap 'rm -rf "$t"' EXIT
# Its own cache: the series is read into it, nothing is fetched.
LSMCONF_CACHE=$t/cache
export LSMCONF_CACHE
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin series_plan_test.sh "series plan: "

S=$t/store
cd "$root"
plan() {
	"$lsmconf" plan --store "$1" series --results "$t/results" --lsm apparmor \
		--cost "" --test unix_peer_test debian-source:7.2 \
		fixtures/series/third-does-not-apply
}
# The id of the unit whose description is $1, from the store's plan.
id_of() { grep " -- $1\$" "$S/plan.tsv" | cut -d' ' -f1; }
# done ID FILE TEXT...: unit ID finished, FILE holding TEXT.
finish() {
	mkdir -p "$S/units/$1"
	printf 'seconds 1.0\nhost test\nattempt none\n' > "$S/units/$1/done"
	printf '%s' "$3" > "$S/units/$1/$2"
}
# A boot that reached its tests: a uname from the guest, no decision,
# the results a boot's directory must hold (work/units.h).
booted() {
	finish "$1" verdict "PASS
"
	mkdir -p "$S/units/$1/$2-apparmor/guest"
	echo 7.2.13-lsmconf > "$S/units/$1/$2-apparmor/guest/uname"
	printf 'spec\tbuild:x\ndecisions\t0\nverdict\tPASS\n' > "$S/units/$1/$2-apparmor/kernel.txt"
	printf 'TAP version 13\n1..1\nok 1 selftests: apparmor: unix_peer_test\n' > "$S/units/$1/$2-apparmor/ktap.txt"
}

plan "$S" > "$t/plan1" 2> "$t/err" || true
plan "$t/other" > "$t/plan2" 2>> "$t/err" || true
check "the first units: base and tip, built and booted ($(wc -l < "$t/plan1") units)" \
	eval '[ "$(wc -l < "$t/plan1")" -eq 4 ] && grep -q " -- build the base debian-source:7.2$" "$t/plan1" && grep -q " -- build kernel 3 (base + patches 1-3)$" "$t/plan1" && grep -q " -- boot base$" "$t/plan1" && grep -q " -- boot kernel-3$" "$t/plan1"'
check "two stores, the same ids" eval 'cmp -s "$t/plan1" "$t/plan2"'
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
check "ready: the two builds" \
	eval '[ "$(sort "$t/ready")" = "$(printf "%s\n%s\n" "$(id_of "build the base debian-source:7.2")" "$(id_of "build kernel 3 (base + patches 1-3)")" | sort)" ]'
rc=0
"$lsmconf" unit --store "$S" "$(id_of "boot base")" > /dev/null 2> "$t/dep" || rc=$?
check "a boot before its build: exit 2 ($rc), its build named" \
	eval '[ $rc -eq 2 ] && grep -q "dependencies are not done" "$t/dep"'

# The base built and observed; the tip refused at patch 3 (patch(1)'s
# message as build.c words it, with the path the plan reads it from).
p3=$(ls "$LSMCONF_CACHE"/series/*/0003-*.patch)
finish "$(id_of "build the base debian-source:7.2")" kernel.tsv "status ok
package build 0000000000000000
release 7.2.13-lsmconf
image_sha256 00
"
booted "$(id_of "boot base")" base
finish "$(id_of "build kernel 3 (base + patches 1-3)")" kernel.tsv "status failed
error build:x: applying $p3 failed (exit status 1): 1 out of 1 hunk FAILED
"
finish "$(id_of "boot kernel-3")" verdict "NOBUILD
"
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
k2=$(id_of "build kernel 2 (base + patches 1-2)")
check "patch 3 refused: kernel 2 is next, its build ready" \
	eval '[ -n "$k2" ] && [ "$(cat "$t/ready")" = "$k2" ] && grep -q " -- boot kernel-2$" "$S/plan.tsv"'
# Kernel 2 does not build: the bisection takes its neighbour, kernel 1.
finish "$k2" kernel.tsv "status failed
error build:x: make bzImage failed (exit status 2): Error 1
"
finish "$(id_of "boot kernel-2")" verdict "NOBUILD
"
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
k1=$(id_of "build kernel 1 (base + patches 1-1)")
check "kernel 2 does not build: kernel 1 is next" \
	eval '[ -n "$k1" ] && [ "$(cat "$t/ready")" = "$k1" ]'
rc=0
"$lsmconf" merge --store "$S" > "$t/early" 2>&1 || rc=$?
check "merge before the bisection is over: exit 2 ($rc), the units named" \
	eval '[ $rc -eq 2 ] && grep -q "units are not done" "$t/early"'
rc=0
"$lsmconf" merge --store "$S" --partial > "$t/early" 2>&1 || rc=$?
check "merge --partial: series' report needs every unit, exit 1 ($rc)" \
	eval '[ $rc -eq 1 ] && grep -q "merge --partial: series.s report needs every unit done" "$t/early"'
finish "$k1" kernel.tsv "status ok
package build 1111111111111111
release 7.2.13-lsmconf
image_sha256 11
"
booted "$(id_of "boot kernel-1")" kernel-1
"$lsmconf" plan --store "$S" --ready > "$t/ready" 2>> "$t/err"
check "kernel 1 observed: nothing left to run" eval '[ ! -s "$t/ready" ]'
rc=0
"$lsmconf" merge --store "$S" > "$t/merge" 2>&1 || rc=$?
# shellcheck disable=SC2034 # read by check()
r=$t/results/latest
check "merge: exit 1 (a patch refused, one that does not build)" eval '[ $rc -eq 1 ]'
check "report: patch 3 does not apply, patch 2 does not build, patch 1 as the base" \
	eval 'grep -q "^ 3 NO  - " "$r/report.txt" && grep -q "^ 2 yes NO  - " "$r/report.txt" && grep -q "^ 1 yes yes same " "$r/report.txt"'
check "series.tsv: a row a patch" eval '[ "$(wc -l < "$r/series.tsv")" -eq 4 ]'
check "the boots linked into the results, kernel 3's and 2's absent" \
	eval '[ -d "$r/base-apparmor" ] && [ -d "$r/kernel-1-apparmor" ] && ! ls -d "$r"/kernel-3* "$r"/kernel-2* > /dev/null 2>&1'
# A partial copy of the store: the base's boot is done, its results
# directory is not there. merge, plan --ready and unit refuse it in one
# line naming it; no report is written.
base=$(id_of "boot base")
mv "$S/units/$base/base-apparmor" "$t/kept"
# shellcheck disable=SC2034 # read by check()
before=$(readlink "$t/results/latest")
rc=0
"$lsmconf" merge --store "$S" > "$t/partial" 2>&1 || rc=$?
check "merge of a done boot without its results: exit 2 ($rc), one line naming it, no report" \
	eval '[ $rc -eq 2 ] && [ "$(wc -l < "$t/partial")" -eq 1 ] && grep -q "$base (boot base) lacks base-apparmor/" "$t/partial" && grep -q "remove $S/units/$base and run it again" "$t/partial" && [ "$(readlink "$t/results/latest")" = "$before" ]'
rc=0
"$lsmconf" plan --store "$S" --ready > "$t/partial" 2>&1 || rc=$?
check "plan --ready refuses it too: exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "lacks base-apparmor/" "$t/partial"'
rc=0
"$lsmconf" unit --store "$S" "$base" > "$t/partial" 2>&1 || rc=$?
check "and unit: exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "^lsmconf: unit: a unit done in .* lacks base-apparmor/" "$t/partial"'
mv "$t/kept" "$S/units/$base/base-apparmor"
rm "$S/units/$base/base-apparmor/kernel.txt"
rc=0
"$lsmconf" merge --store "$S" > "$t/partial" 2>&1 || rc=$?
check "and one whose kernel.txt is missing: exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "lacks base-apparmor/kernel.txt; remove" "$t/partial"'
printf 'spec\tbuild:x\n' > "$S/units/$base/base-apparmor/kernel.txt"

# Another lsmconf's plan (a first unit this one does not plan): refused.
sed '1s/^[0-9a-f]*/0000000000000000/' "$S/plan.tsv" > "$t/p" && mv "$t/p" "$S/plan.tsv"
rc=0
"$lsmconf" plan --store "$S" --ready > /dev/null 2> "$t/bad" || rc=$?
check "a store planned by another lsmconf: one line, exit 1 ($rc)" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l < "$t/bad")" -eq 1 ] && grep -q "not what this lsmconf plans" "$t/bad"'
if [ "$tap_fail" -ne 0 ]; then
	sed 's/^/# /' "$t/err" "$t/merge"
fi
tap_end
