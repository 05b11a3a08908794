#!/bin/sh
# Units of work end to end, on a 3-mutant mutate run (kernels from the
# cache): the serial command (every unit here, then merge); two `lsmconf
# unit ID` racing on one unit of one store (one result, both exit 0); the
# same plan run step by step through GNU parallel, merged, with the
# serial run's verdicts and exit status; then slurm_test.sh with that
# reference.
#   units_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped"; slurm_test.sh counts its own.
set -u
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
L=$1
here=$(dirname "$0")
T=$(mktemp -d /tmp/lsmconf-units.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin units_test.sh "units: "
t0=$(date +%s)
secs() { echo "$(($(date +%s) - t0)) s"; }

# The run both engines repeat: three AppArmor mutants the live test kills
# or not, against the original, four boots in all.
set -- mutate --lsm apparmor --test live_test \
	--mutant 01-early-return-either-peer --mutant 05-first-profile-only \
	--mutant 09-errno-eperm
# verdicts OUT TSV: what two runs of one plan must share.
# shellcheck source=runner/tests/verdicts.sh
. "$here/verdicts.sh"

timeout -k 5 1800 "$L" "$@" --results "$T/serial" > "$T/serial.out" 2> "$T/serial.err"
src=$?
if [ -f "$T/serial/latest/mutants.tsv" ]; then
	ok "serial mutate of 3 mutants: exit $src, $(grep -c '^== mutant [^ ]*: [a-z]*$' "$T/serial.out") verdicts ($(secs))"
else
	no "serial mutate of 3 mutants: exit $src, no mutants.tsv"
	sed 's/^/#   /' "$T/serial.err" | tail -10
fi
verdicts "$T/serial.out" "$T/serial/latest/mutants.tsv" > "$T/serial.v" 2> /dev/null

# An interrupted serial command leaves no QEMU behind: each unit gets
# SIGTERM first (from lsmconf's handler, or as its parent-death signal
# after SIGKILL) and stops its own QEMUs. The signal goes once a guest of
# the run is up (a QEMU with its results path; at most 60 s), not after
# a fixed time: with kernels cached, the whole compare can end in 12 s.
# ("[q]emu" keeps the pattern from matching the command that holds it.)
for sig in TERM KILL; do
	"$L" compare --results "$T/int-$sig" --lsm apparmor --test live_test \
		debian:trixie debian:sid > /dev/null 2> "$T/int-$sig.err" &
	pid=$!
	n=600
	while [ "$n" -gt 0 ] && kill -0 "$pid" 2> /dev/null &&
		! pgrep -f "[q]emu-system.*$T/int-$sig" > /dev/null; do
		n=$((n - 1))
		sleep 0.1
	done
	kill -"$sig" "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	timeout 10 pidwait -f "[q]emu-system.*$T/int-$sig"
	# 128 + the signal: lsmconf's handler for SIGTERM, the kernel's for SIGKILL.
	if [ "$rc" -ne 143 ] && [ "$rc" -ne 137 ]; then
		no "SIG$sig to a serial compare while a guest ran: exit $rc (no guest came up in 60 s, or it had ended)"
	elif pgrep -f "[q]emu-system.*$T/int-$sig" > /dev/null; then
		no "SIG$sig to a serial compare: QEMU left behind"
		pkill -KILL -f "[q]emu-system.*$T/int-$sig"
	else
		ok "SIG$sig to a serial compare (exit $rc): no QEMU left, $(grep -c 'interrupted by signal 15' "$T/int-$sig.err") processes said so"
	fi
done

S=$T/store
if "$L" plan --store "$S" "$@" > "$T/plan" 2> "$T/plan.err"; then
	ok "plan: $(wc -l < "$T/plan") units in $("$L" plan --store "$S" --steps | wc -l) steps"
else
	no "plan: $(cat "$T/plan.err")"
fi
# A unit before its dependencies: exit 2, naming them.
last=$(tail -1 "$T/plan" | cut -d' ' -f1)
"$L" unit --store "$S" "$last" > /dev/null 2> "$T/early.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'its dependencies are not done' "$T/early.err"; then
	ok "a unit whose dependencies are not done: exit 2 ($(cut -c1-80 "$T/early.err")...)"
else
	no "a unit whose dependencies are not done: exit $rc, $(cat "$T/early.err")"
fi
"$L" merge --store "$S" > /dev/null 2> "$T/merge0.err"
rc=$?
if [ "$rc" -eq 2 ]; then
	ok "merge before the units: exit 2 ($(cut -c1-60 "$T/merge0.err")...)"
else
	no "merge before the units: exit $rc"
fi

# Step 0 (the original's build) here, then the first mutant's boot's
# dependencies (its build, the original's boot), then two processes race
# on that boot: a unit that boots (the original's own boot comes from the
# runs cache at once, no race at all).
for id in $("$L" plan --store "$S" --step 0 | cut -d' ' -f1); do
	"$L" unit --store "$S" "$id" > /dev/null || no "unit $id"
done
race=$("$L" plan --store "$S" --steps | tail -1 | cut -d' ' -f1)
line=$("$L" plan --store "$S" --step "$race" | head -1)
id=${line%% *}
for dep in $(printf '%s\n' "$line" | sed 's/ -- .*//' | cut -d' ' -f3-); do
	"$L" unit --store "$S" "$dep" > /dev/null || no "unit $dep"
done
timeout -k 5 900 "$L" unit --store "$S" "$id" > "$T/r1.out" 2>&1 &
p1=$!
timeout -k 5 900 "$L" unit --store "$S" "$id" > "$T/r2.out" 2>&1 &
p2=$!
wait "$p1"
r1=$?
wait "$p2"
r2=$?
n=$(find "$S/units" -mindepth 1 -maxdepth 1 -name "$id*" | wc -l)
tmps=$(find "$S/units" -mindepth 1 -maxdepth 1 -name ".*" | wc -l)
if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] && [ "$n" -eq 1 ] && [ "$tmps" -eq 0 ] &&
	[ -f "$S/units/$id/done" ] && grep -q 'done already' "$T/r1.out" "$T/r2.out"; then
	ok "two lsmconf unit $id at once: both exit 0, one result, one ran ($(cat "$T/r1.out" "$T/r2.out" | tr '\n' ';'))"
else
	no "two lsmconf unit $id at once: exits $r1 $r2, $n results, $tmps attempts left"
	sed 's/^/#   /' "$T/r1.out" "$T/r2.out" | tail -10
fi

# Every step through GNU parallel, the units of a step side by side (a
# build step: one at a time, it takes every CPU).
if ! command -v parallel > /dev/null; then
	no "GNU parallel: not installed (Debian package parallel, runner/packages.txt)"
else
	tp=$(date +%s)
	for step in $("$L" plan --store "$S" --steps | cut -d' ' -f1); do
		jobs=$(nproc)
		"$L" plan --store "$S" --steps | grep -q "^$step .* exclusive$" && jobs=1
		"$L" plan --store "$S" --step "$step" |
			timeout -k 5 1800 parallel --will-cite -j "$jobs" --colsep ' ' \
				--joblog "$T/joblog.$step" "$L" unit --store "$S" '{1}' \
				>> "$T/parallel.out" 2>&1 ||
			no "GNU parallel: step $step failed ($(tail -3 "$T/parallel.out"))"
	done
	timeout -k 5 600 "$L" merge --store "$S" > "$T/par.out" 2> "$T/par.err"
	prc=$?
	verdicts "$T/par.out" "$(sed -n 's/.*results in \(.*\) (mutants.tsv)$/\1/p' "$T/par.out")/mutants.tsv" > "$T/par.v" 2> /dev/null
	if [ "$prc" -eq "$src" ] && [ -s "$T/serial.v" ] && cmp -s "$T/serial.v" "$T/par.v"; then
		ok "GNU parallel, step by step, then merge: exit $prc, the serial run's verdicts ($(grep '^== mutation score' "$T/par.out" | cut -c4-60)...; $(($(date +%s) - tp)) s)"
	else
		no "GNU parallel then merge: exit $prc (serial $src), verdicts differ"
		diff "$T/serial.v" "$T/par.v" | sed 's/^/#   /' | head -20
		sed 's/^/#   /' "$T/par.err" | tail -5
	fi
	# A unit that ran before is not run again: a second pass runs none.
	"$L" plan --store "$S" --step 0 | parallel --will-cite --colsep ' ' \
		"$L" unit --store "$S" '{1}' > "$T/again.out" 2>&1
	if grep -q 'done already' "$T/again.out" && ! grep -q 'done in' "$T/again.out"; then
		ok "the units again: each done already, none run"
	else
		no "the units again: $(cat "$T/again.out")"
	fi
fi

# Its checks, passed, failed or skipped, are its own (its closing line).
sh "$here/slurm_test.sh" "$L" "$T/serial.v" "$src"
rc=$?
[ "$rc" -eq 0 ] || no "slurm_test.sh ended with exit $rc"

tap_end
