#!/bin/sh
# A single-node Slurm cluster from Debian's packages (slurm-wlm, munge),
# started as root in a temporary directory and stopped on exit; a
# 3-mutant mutate run's units submitted as job arrays, one array a step
# of the plan (`sbatch --array=FIRST-LAST --wait`, each task `lsmconf
# unit --index $SLURM_ARRAY_TASK_ID`), merged; its verdicts must be the
# serial run's. Then a series, whose plan grows: one array a round of
# the units `lsmconf plan --ready` names, until none is left, merged.
#   slurm_test.sh LSMCONF [SERIAL_VERDICTS SERIAL_STATUS]
# (from units_test.sh: the serial run's verdicts; without them the
# serial run is made here). On a host where Slurm cannot start each check
# prints its skip line with the reason (runner/tests/tap.sh), and the
# script exits 0; a failed check exits 1.
set -u
[ $# -eq 1 ] || [ $# -eq 3 ] || { echo "usage: $0 LSMCONF [SERIAL_VERDICTS SERIAL_STATUS]" >&2; exit 2; }
L=$1
ref_v=${2:-}
ref_rc=${3:-}
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin slurm_test.sh "slurm: "
# skip_all REASON: Slurm cannot start here; each check says so, and the
# script ends.
skip_all() {
	for c in "a single-node cluster starts" \
		"job arrays of a mutate plan, merged: the serial run's verdicts" \
		"a series through job arrays, one a round of plan --ready, merged"; do
		skip "$c" "$1"
	done
	tap_end
	exit
}

[ "$(id -u)" -eq 0 ] || skip_all "not root: slurmd and munged are started as root here"
for p in munged slurmctld slurmd sbatch scontrol sinfo; do
	command -v "$p" > /dev/null || skip_all "no $p (Debian packages slurm-wlm and munge)"
done
T=$(mktemp -d /tmp/lsmconf-slurm.XXXXXX)
chmod 700 "$T"
pids=""
stop() {
	for p in $pids; do kill "$p" 2> /dev/null; done
	for p in $pids; do wait "$p" 2> /dev/null; done
	rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP
t0=$(date +%s)

# poll TRIES CMD...: CMD until it succeeds, once a second, TRIES times.
poll() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" > /dev/null 2>&1 && return 0
		n=$((n - 1))
		sleep 1
	done
	return 1
}

# munge: its own key, socket and files.
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$T/munge.key"
munged --foreground --force --key-file="$T/munge.key" --socket="$T/munge.sock" \
	--pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munged.seed" \
	> "$T/munged.out" 2>&1 &
pids="$pids $!"
poll 30 test -S "$T/munge.sock" || skip_all "munged did not start: $(tail -1 "$T/munged.log" "$T/munged.out" 2> /dev/null | tr '\n' ' ')"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" << CONF
ClusterName=lsmconf
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=lsmconf Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
pids="$pids $!"
poll 60 sh -c 'scontrol ping | grep -q UP' ||
	skip_all "slurmctld did not answer in 60 s: $(tail -2 "$T/slurmctld.log" "$T/slurmctld.out" 2> /dev/null | tr '\n' ' ')"
slurmd -D -f "$SLURM_CONF" > "$T/slurmd.out" 2>&1 &
pids="$pids $!"
poll 60 sh -c 'sinfo -h -o %T | grep -q idle' ||
	skip_all "slurmd's node is not idle after 60 s ($(sinfo -h -o %T 2>&1)): $(tail -2 "$T/slurmd.log" "$T/slurmd.out" 2> /dev/null | tr '\n' ' ')"
ok "a single-node cluster: $host, $cpus CPUs, $(sinfo -h -o %T) ($(($(date +%s) - t0)) s)"

set -- mutate --lsm apparmor --test live_test \
	--mutant 01-early-return-either-peer --mutant 05-first-profile-only \
	--mutant 09-errno-eperm
# shellcheck source=runner/tests/verdicts.sh
. "$(dirname "$0")/verdicts.sh"
# The serial reference, unless units_test.sh made it.
if [ -z "$ref_v" ]; then
	timeout -k 5 1800 "$L" "$@" --results "$T/serial" > "$T/serial.out" 2>&1
	ref_rc=$?
	ref_v=$T/serial.v
	verdicts "$T/serial.out" "$T/serial/latest/mutants.tsv" > "$ref_v" 2> /dev/null
fi

# One array a step: a step's units depend only on earlier steps'. A
# build step asks for the whole node: a kernel build takes every CPU.
S=$T/store
tj=$(date +%s)
"$L" plan --store "$S" "$@" > "$T/plan" || no "plan: exit $?"
"$L" plan --store "$S" --steps > "$T/steps"
while read -r step first last class; do
	ex=""
	[ "$class" = exclusive ] && ex=--exclusive
	# shellcheck disable=SC2086 # $ex: one word or none
	timeout -k 5 1800 sbatch --wait --parsable $ex --array="$first-$last" 		--job-name="lsmconf-$step" --output="$T/job-%A_%a.out" 		--wrap="'$L' unit --store '$S' --index \$SLURM_ARRAY_TASK_ID" 		> "$T/sbatch.$step" 2>&1 ||
		no "step $step: sbatch --array=$first-$last failed: $(tail -2 "$T/sbatch.$step" | tr '\n' ' ')"
done < "$T/steps"
tasks=$(cat "$T"/job-*.out 2> /dev/null | grep -c '^unit [0-9a-f]* [a-z]*: done')
timeout -k 5 600 "$L" merge --store "$S" > "$T/merge.out" 2> "$T/merge.err"
rc=$?
res=$(sed -n 's/.*results in \(.*\) (mutants.tsv)$/\1/p' "$T/merge.out")
verdicts "$T/merge.out" "$res/mutants.tsv" > "$T/slurm.v" 2> /dev/null
if [ "$rc" -eq "$ref_rc" ] && [ -s "$ref_v" ] && cmp -s "$ref_v" "$T/slurm.v"; then
	ok "$(wc -l < "$T/steps") job arrays ($tasks tasks ran lsmconf unit --index \$SLURM_ARRAY_TASK_ID), merged: exit $rc, the serial run's verdicts ($(grep '^== mutation score' "$T/merge.out" | cut -c4-60)...; $(($(date +%s) - tj)) s)"
else
	no "job arrays, merged: exit $rc (serial $ref_rc), verdicts differ"
	diff "$ref_v" "$T/slurm.v" | sed 's/^/#   /' | head -20
	sed 's/^/#   /' "$T/merge.err" | tail -5
	tail -5 "$T"/job-*.out 2> /dev/null | sed 's/^/#   /' | tail -20
fi

# A series, whose plan grows with its results: one array a round, over
# the ids plan --ready names (task N runs the round's line N + 1). Its
# third patch does not apply; kernel 2 is the last that exists.
S=$T/series
ts=$(date +%s)
"$L" plan --store "$S" series --results "$T/series-results" --lsm apparmor \
	--cost "" --test live_test debian-source:7.2 \
	fixtures/series/third-does-not-apply > /dev/null || no "plan series: exit $?"
rounds=0
while ids=$("$L" plan --store "$S" --ready 2>> "$T/series.err") &&
	[ -n "$ids" ] && [ "$rounds" -lt 20 ]; do
	rounds=$((rounds + 1))
	# shellcheck disable=SC2086 # one id a word
	printf '%s\n' $ids > "$T/ready.$rounds"
	n=$(wc -l < "$T/ready.$rounds")
	timeout -k 5 1800 sbatch --wait --parsable --array="0-$((n - 1))" \
		--job-name="lsmconf-series-$rounds" --output="$T/sjob-%A_%a.out" \
		--wrap="'$L' unit --store '$S' \$(sed -n \$((SLURM_ARRAY_TASK_ID + 1))p '$T/ready.$rounds')" \
		> "$T/ssbatch.$rounds" 2>&1 ||
		no "series round $rounds: sbatch --array=0-$((n - 1)) failed: $(tail -2 "$T/ssbatch.$rounds" | tr '\n' ' ')"
done
timeout -k 5 600 "$L" merge --store "$S" > "$T/smerge.out" 2> "$T/smerge.err"
rc=$?
rep=$T/series-results/latest/report.txt
if [ "$rc" -eq 1 ] && [ "$rounds" -ge 3 ] && grep -q '^ 3 NO  - ' "$rep" &&
	grep -q '^ 2 yes yes same ' "$rep"; then
	ok "a series in $rounds rounds of plan --ready, one array each, merged: exit 1, patch 3 refused, kernel 2 as the base ($(($(date +%s) - ts)) s)"
else
	no "a series through job arrays: exit $rc after $rounds rounds"
	sed 's/^/#   /' "$T/smerge.err" "$T/series.err" "$rep" 2> /dev/null | tail -20
	tail -5 "$T"/sjob-*.out 2> /dev/null | sed 's/^/#   /' | tail -20
fi
tap_end
