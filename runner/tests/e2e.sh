#!/bin/sh
# End-to-end checks of the runner: real boots of the default kernels, and
# every kind of bad input ending in a clear error, in bounded time.
# Kernels built from source are e2e_built.sh's, run beside this one.
#   e2e.sh path/to/lsmconf
# Prints one line per check (runner/tests/tap.sh: ok, not ok, or a skip
# with its reason) and closes with "N passed, N failed, N skipped".
set -u
e2e_script=e2e.sh
# shellcheck source=runner/tests/e2e_common.sh
. "$(dirname "$0")/e2e_common.sh"

# 1. Both default kernels boot, pass the suite, and differ only as explained.
if "$L" compare --results "$T/r1" debian:trixie debian:sid > "$T/run1" 2>&1; then
	ok "compare debian:trixie debian:sid: $(grep 'cases:' "$T/run1" | sed 's/^ *//')"
else
	no "compare debian:trixie debian:sid passes with nothing unexplained"
	explain "$T/run1" "$T/r1"
fi
check "trixie vs sid: 0 unexplained" grep -q 'cases: .* 0 unexplained' "$T/run1"
sid="$T/r1/latest/debian-sid-apparmor/kernel.txt"
trixie="$T/r1/latest/debian-trixie-apparmor/kernel.txt"
# Fine-grained AF_UNIX mediation (network_v9/af_unix) entered Linux in
# 6.17: trixie ships 6.12, sid 7.2.
case "$(field "$sid" uname)" in
7.*) check "sid (7.x) advertises network_v9/af_unix" \
	[ "$(field "$sid" 'feature network_v9/af_unix')" = yes ] ;;
*) no "sid kernel identity recorded (uname '$(field "$sid" uname)')" ;;
esac
case "$(field "$trixie" uname)" in
6.12.*) check "trixie (6.12) lacks network_v9/af_unix" \
	[ "$(field "$trixie" 'feature network_v9/af_unix')" = no ] ;;
*) no "trixie kernel identity recorded (uname '$(field "$trixie" uname)')" ;;
esac
# suite_checks NAME DIR: the boots of one kernel in results DIR passed
# every installed test and decided every case as the model says.
suite_checks() {
	k=$1
	d="$2/debian-$k-apparmor"
	for t in "$tests"/apparmor/*_test; do
		t=${t##*/}
		check "$k: $t ok in ktap.txt" grep -q \
			"^ok [0-9]* selftests: apparmor: $t\$" "$d/ktap.txt"
	done
	n=$(($(wc -l < "$d/records.tsv") - 1))
	check "$k: $n decisions recorded (at least 600)" [ "$n" -ge 600 ]
	# A known kernel bug's decisions (known.tsv) are the bug, reported apart.
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "$k: every decision as expected or a known kernel bug" \
		awk -F '\t' -v known="$d/known.tsv" '
			BEGIN { while ((getline l < known) > 0) { split(l, f, "\t"); k[f[1]] = 1 } }
			NR > 1 && $9 != $10 && !($1 in k) { bad = 1 } END { exit bad }' "$d/records.tsv"
	# Old-ABI coarse rules and what AppArmor logs (unix_coarse_test,
	# audit_test): the same case ids on every kernel.
	n=$(grep -c '^unix_coarse_test/' "$d/records.tsv")
	check "$k: 7161 unix_coarse decisions ($n)" [ "$n" -eq 7161 ]
	check "$k: a coarse deny (ABI 3.0) denies socket()" grep -q \
		'^unix_coarse_test/unix_coarse.abi_3_0.decisions/deny_dgram/dgram/abstract/confined_sender/sender.socket	.*	EACCES	EACCES$' "$d/records.tsv"
	# inet (inet_test): the same cells on every kernel, denials in both
	# families.
	n=$(grep -c '^inet_test/' "$d/records.tsv")
	check "$k: 5550 inet decisions ($n)" [ "$n" -eq 5550 ]
	for f in inet inet6; do
		check "$k: an $f rule denies" grep -q \
			"^inet_test/inet\.[a-z0-9_]*__${f}__.*	EACCES	EACCES\$" "$d/records.tsv"
	done
	# Without network mediation (kernel-5.4 vanilla ABI) no network rule
	# denies; only unix_nofile's file rules, which leave out the socket
	# directory, refuse creating a pathname socket's file at bind().
	check "$k: ABI kernel-5.4-vanilla denies nothing but unix_nofile's pathname bind" \
		sh -c "! grep '^unix_coarse_test/unix_coarse.abi_vanilla.decisions/' '$d/records.tsv' | grep '	EACCES' | grep -vq '^unix_coarse_test/unix_coarse.abi_vanilla.decisions/unix_nofile/[a-z]*/pathname/confined_receiver/receiver.bind	'"
	check "$k: ABI kernel-5.4-vanilla: unix_nofile's file rules refuse the pathname bind" grep -q \
		'^unix_coarse_test/unix_coarse.abi_vanilla.decisions/unix_nofile/dgram/pathname/confined_receiver/receiver.bind	.*	EACCES	EACCES$' "$d/records.tsv"
	check "$k: a quiet deny logs nothing" grep -q \
		'^audit_test/audit.coarse.records/deny/dgram/log.record	.*	ENOENT	ENOENT$' "$d/records.tsv"
	check "$k: audit deny logs" grep -q \
		'^audit_test/audit.coarse.records/audit_deny/dgram/log.record	.*	allow	allow$' "$d/records.tsv"
	# SELinux: a boot of its own per kernel, every decision as expected,
	# enforcing verified by the tests themselves.
	d="$2/debian-$k-selinux"
	check "$k: SELinux is the active LSM of its boot" \
		grep -q '^lsm	.*selinux' "$d/kernel.txt"
	for t in "$tests"/selinux/*_test; do
		t=${t##*/}
		check "$k: selinux $t ok in ktap.txt" grep -q \
			"^ok [0-9]* selftests: selinux: $t\$" "$d/ktap.txt"
	done
	n=$(($(wc -l < "$d/records.tsv") - 1))
	check "$k: $n SELinux decisions recorded (at least 130)" [ "$n" -ge 130 ]
	check "$k: SELinux denials seen (EACCES and ENOMSG)" \
		sh -c "grep -q '	EACCES	EACCES\$' '$d/records.tsv' && grep -q '	ENOMSG	ENOMSG\$' '$d/records.tsv'"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "$k: every SELinux decision as expected" \
		awk -F '\t' 'NR > 1 && $9 != $10 { bad = 1 } END { exit bad }' "$d/records.tsv"
	# Every SELinux test binary, with the same case ids on every kernel
	# (the planned decisions, not an observation), each denying.
	for a in socket_test:6498 ipc_test:1674 msgq_test:84 mls_test:236 \
		modes_test:154 unix_test:54 lifecycle_test:44; do
		n=$(grep -c "^${a%%:*}/" "$d/records.tsv")
		check "$k: ${a#*:} SELinux ${a%%:*} decisions ($n)" [ "$n" -eq "${a#*:}" ]
		check "$k: SELinux ${a%%:*} denies" grep -q \
			"^${a%%:*}/.*	E[A-Z]*	E[A-Z]*\$" "$d/records.tsv"
	done
	check "$k: a permissive domain is allowed in enforcing mode" grep -q \
		'^modes_test/modes.enforcing_perm_connect.twice/connect1	.*	allow	allow$' "$d/records.tsv"
	check "$k: incomparable MCS levels deny connectto" grep -q \
		'^mls_test/mls_pair.c1024_incomp_c0_c1.decide/connect	.*	EACCES	EACCES$' "$d/records.tsv"
	check "$k: a blocked receiver without receive gets no handover" grep -q \
		'^ipc_test/blocked.no_receive_any_from_ok.handover/handover	.*	EAGAIN	EAGAIN$' "$d/records.tsv"
}
for k in trixie sid; do
	suite_checks "$k" "$T/r1/latest"
done
# has KERNEL ID EXPECTED OBSERVED: a decision of r1's AppArmor boot.
has() {
	grep -q "^$2	.*	$3	$4\$" "$T/r1/latest/debian-$1-apparmor/records.tsv"
}
check "rule forms: sid refuses a stacked peer when the rule names one of its profiles" \
	has sid 'unix_rules_test/unix_rules.label_exact__stack_first_named.decisions/sender.sendto' EACCES EACCES
check "rule forms: trixie's downgraded rule drops the peer condition" \
	has trixie 'unix_rules_test/unix_rules.label_exact__stack_first_named.decisions/sender.sendto' allow allow
check "rule forms: trixie keeps type= in the downgraded rule" \
	has trixie 'unix_rules_test/unix_rules.type_stream__seqpacket.decisions/sender.connect' EACCES EACCES
check "sid: the known kernel bug apparmor-unix-file-perm-null-peer shows (3 cases)" \
	grep -q 'known kernel bug apparmor-unix-file-perm-null-peer: 3 cases' "$T/run1"
check "old ABI on 7.2: an inherited socket receives where 6.12 denied it" grep -q \
	'^unix_coarse_test/unix_coarse.abi_3_0.decisions/deny_dgram/dgram/abstract/inherited_receiver/receiver.receive	explained	EACCES	allow	' \
	"$T/r1/latest/compare.tsv"
check "compare: the known kernel bug explains what sid could not record" grep -q \
	'^unix_lifecycle_test/lifecycle.dgram_change.confined_write/new.client.write	explained	allow	-	known kernel bug apparmor-unix-file-perm-null-peer brought the second kernel down' \
	"$T/r1/latest/compare.tsv"
check "rule forms: the parser refuses peer=(addr=/path)" \
	has sid 'unix_rules_test/global.pathname_peer_addr_refused/parser.compile' ENOEXEC ENOEXEC
# Every decision of all boots of both kernels is a compared case: the
# union of their ids (a case recorded on one kernel only is one case).
n_ids=$(cat "$T"/r1/latest/debian-*-*/records.tsv | cut -f1 | grep -v '^id$' | sort -u | wc -l)
n_cmp=$(sed -n 's/^   cases: \([0-9]*\) same, \([0-9]*\) explained, \([0-9]*\) unexplained$/\1 + \2 + \3/p' "$T/run1")
check "compare covers AppArmor and SELinux decisions ($n_ids = ${n_cmp:-?})" \
	[ "$n_ids" -eq "$((${n_cmp:-0}))" ]

# Where the time went (timing.tsv): the run's root gathers every kernel's
# rows, each boot has its QEMU and kernel-boot rows, each program its own,
# and the last line says it in one line.
check "timing: the one-line breakdown printed" grep -q \
	'^lsmconf: time: .*QEMU [0-9.]* s in [0-9]* boots (to first output .*; guest: kernel boot .*programs .* = start-up .* + cases .* + end ' "$T/run1"
# shellcheck disable=SC2016 # awk fields, not shell variables
check "timing: sid's AppArmor boots each have a qemu and a kernel-boot row" awk -F '\t' '
	$1 == "debian-sid-apparmor" && $3 == "qemu" { q[$2] = 1 }
	$1 == "debian-sid-apparmor" && $3 == "kernel-boot" { k[$2] = 1 }
	END { for (b in q) { n++; if (!(b in k)) exit 1 } exit !n }' "$T/r1/latest/timing.tsv"
# A crash costs its case: sid's three listed oopses ran in boots of their
# own beside the main one (known-crashes/), each its own boot, and the
# main boot ran unix_lifecycle_test's other cases.
d="$T/r1/latest/debian-sid-apparmor"
check "known crashes apart: sid's 3 listed cases each brought down a boot of their own" \
	[ "$(grep -c '^crash	unix_lifecycle_test	lifecycle\.dgram_change\.[a-z_]*	[2-4]	' "$d/known-crashes/outcome.tsv")" -eq 3 ]
# main_ran_others KTAP: the program exited 0, ran cases, none listed.
main_ran_others() {
	[ "$(cat "${1%.ktap}.rc")" = 0 ] && grep -q '^ok [0-9]* lifecycle\.' "$1" &&
		! grep -q 'dgram_change\.\(confined_write\|scm_rights_from_confined\|exec_from_confined\)' "$1"
}
check "known crashes apart: the main boot ran unix_lifecycle_test's other cases" \
	main_ran_others "$d/guest/tests/unix_lifecycle_test.ktap"
# every_program_timed DIR: each program DIR's guest ran has its row.
every_program_timed() {
	n=0
	for rc in "$1"/guest/tests/*.rc; do
		p=$(basename "$rc" .rc)
		grep -q "	program	$p	" "$1/timing.tsv" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}
check "timing: every program of trixie's AppArmor boot has its row" \
	every_program_timed "$T/r1/latest/debian-trixie-apparmor"

# 1b. compare --saved: the same report from r1's saved results, no boot.
# The live exit status follows from its report: 0 when nothing is
# unexplained and neither run failed on its own.
live_rc=1
if grep -q 'cases: .* 0 unexplained' "$T/run1" && ! grep -q '^   runs: .* failed on its own' "$T/run1"; then
	live_rc=0
fi
t0=$(date +%s)
"$L" compare --saved --results "$T/r1s" "$T/r1/latest" > "$T/saved1" 2>&1
saved_rc=$?
took=$(($(date +%s) - t0))
check "compare --saved of r1: exit $saved_rc as the live compare's $live_rc" \
	[ "$saved_rc" -eq "$live_rc" ]
check "compare --saved of r1: the same cases: line" \
	[ "$(grep 'cases:' "$T/saved1")" = "$(grep 'cases:' "$T/run1")" ]
check "compare --saved of r1: the same compare.tsv" \
	cmp -s "$T/r1/latest/compare.tsv" "$T/r1s/latest/compare.tsv"
check "compare --saved boots nothing (${took} s < 10 s)" [ "$took" -lt 10 ]
# Two directories, each one kernel's boot: A and B as named.
"$L" compare --saved --results "$T/r1s" "$T/r1/latest/debian-trixie-apparmor" \
	"$T/r1/latest/debian-sid-apparmor" > "$T/saved2" 2>&1
check "compare --saved A-dir B-dir: trixie -> sid, as named" \
	grep -q '^== compare debian:trixie -> debian:sid$' "$T/saved2"
check "kernel.txt records the run's verdict" [ "$(field "$sid" verdict)" = PASS ]
# Saved runs are judged against today's list (issue 37): a copy of sid's
# AppArmor boot where one denial became allow, with a saved known.tsv
# that names a bug no list has, explains nothing: the deny -> allow is
# unexplained, exit 1.
cp -rL "$T/r1/latest/debian-sid-apparmor" "$T/forged"
flip=$(awk -F '\t' 'NR > 1 && $10 == "EACCES" && $9 == "EACCES" { print $1; exit }' "$T/forged/records.tsv")
awk -F '\t' -v id="$flip" 'BEGIN { OFS = "\t" } $1 == id { $10 = "allow" } { print }' \
	"$T/r1/latest/debian-sid-apparmor/records.tsv" > "$T/forged/records.tsv"
printf '%s\tmade-up-bug\n' "$flip" >> "$T/forged/known.tsv"
"$L" compare --saved --results "$T/r1s" "$T/r1/latest/debian-sid-apparmor" \
	"$T/forged" > "$T/forged.out" 2>&1
rc=$?
check "saved known.tsv naming an unlisted bug explains nothing: exit $rc, the flip unexplained" \
	sh -c "[ $rc -eq 1 ] && grep -qF 'unexplained $flip: EACCES -> allow' '$T/forged.out' && ! grep -q made-up-bug '$T/forged.out'"
mkdir "$T/notres"
expect_fail "compare --saved: not a results directory" 'not a results directory' \
	"$L" compare --saved --results "$T/r1s" "$T/notres" "$T/r1/latest"
check "compare --saved: the error is one line" [ "$(wc -l < "$T/err")" -eq 1 ]

# 1b, KCIDB. A real run as kernel CI reads it: lsmconf kcidb of r1, validated
# against the vendored KCIDB v5.3 schema (Debian's python3-jsonschema,
# format checking on), once per boot's directory and in the whole run.
# Its files are kcidb-NAME.*: NAME.out may be the run's own output.
kcidb_valid() {
	if "$L" kcidb -o "$T/kcidb-$1.json" "$2" > "$T/kcidb-$1.out" 2> "$T/kcidb-$1.err" &&
		/usr/bin/python3 "$(dirname "$0")/kcidb_validate.py" \
			"$(dirname "$0")/../../fixtures/kcidb/kcidb.v5.3.schema.json" \
			"$T/kcidb-$1.json" > "$T/kcidb-$1.valid" 2>&1; then
		ok "kcidb of $1: $(sed 's/^.*: kcidb: //' "$T/kcidb-$1.out")"
	else
		no "kcidb of $1 passes the KCIDB v5.3 schema"
		sed 's/^/#   /' "$T/kcidb-$1.err" "$T/kcidb-$1.valid" 2> /dev/null | head -10
	fi
}
kcidb_valid r1 "$T/r1/latest"
check "kcidb of r1: a test per case, under kselftest.apparmor." \
	grep -q '"path": "kselftest.apparmor.unix_peer_test.unix_peer\.' "$T/kcidb-r1.json"
check "kcidb of r1: decisions with their errno in misc" \
	grep -q '"errno": "EACCES"' "$T/kcidb-r1.json"
check "kcidb of r1: sid's crashes are incidents of apparmor-unix-file-perm-null-peer" \
	grep -q '"issue_id": "lsmconf:apparmor-unix-file-perm-null-peer"' "$T/kcidb-r1.json"
"$L" kcidb -o "$T/kcidb-r1b.json" "$T/r1/latest" > /dev/null 2>&1
check "kcidb of r1: the same ids when converted again" cmp -s "$T/kcidb-r1.json" "$T/kcidb-r1b.json"
expect_fail "kcidb: not a results directory" 'not a results directory' \
	"$L" kcidb "$T/notres"

# 1c. The kernel's own tools read what the guests printed: the 7.2 tree's
# kunit.py parse accepts sid's ktap.txt (both LSMs) and every test's own
# KTAP in it with its plan's count, and a plain run_kselftest.sh log
# without lsmconf (records as "# record: " diagnostics) is read by
# lsmconf table (runner/tests/kunit_test.sh, its checks one line each).
env -u LSMCONF_CHECK_COUNTS sh "$(dirname "$0")/kunit_test.sh" "$L" "$tests" \
	"$T"/r1/latest/debian-sid-* > "$T/kunit.out" 2>&1
tap_relay "$T/kunit.out"
grep -q '^kunit_test.sh: ' "$T/kunit.out" || no "kunit_test.sh ran to its end: $(tail -1 "$T/kunit.out")"

# 1d. The series as upstream gets it, in a guest: make intree's install
# of the patched 7.2 tree (build/intree, same layout as build/kselftest)
# run as a kselftest user runs it, ./run_kselftest.sh -c apparmor once
# (run --collection), on trixie, which no case brings down: it passes in
# one boot, its records (from "# record: " diagnostics) are r1's trixie
# AppArmor boot's (compare --saved: every case same), and kunit.py parse
# reads the one-frame run_kselftest.sh output with the counts lsmconf
# reported for each test (kunit_test.sh).
intree=$(dirname "$L")/intree/apparmor
if [ -x "$intree/abi_test" ]; then
	t0=$(date +%s)
	"$L" run --collection --results "$T/rw" --tests-dir "$intree" \
		--lsm apparmor debian:trixie > "$T/whole" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	w=$T/rw/latest/debian-trixie-apparmor
	if [ "$rc" -eq 0 ] && grep -q ' in 1 boot ' "$T/whole" && [ -s "$w/guest/whole.ktap" ]; then
		ok "run --collection of make intree's install on trixie: one run_kselftest.sh -c apparmor, one boot, in $took s ($(grep 'totals:' "$T/whole" | sed 's/^ *//'))"
	else
		no "run --collection of make intree's install on trixie passes in one boot (exit $rc, $took s)"
		explain "$T/whole" "$T/rw"
	fi
	"$L" compare --saved --results "$T/rws" "$T/r1/latest/debian-trixie-apparmor" \
		"$w" > "$T/wsaved" 2>&1
	n=$(grep -c . "$T/r1/latest/debian-trixie-apparmor/records.tsv")
	check "run --collection: the per-test run's $((n - 1)) records ($(grep 'cases:' "$T/wsaved" | sed 's/^ *//'))" \
		grep -q "^   cases: $((n - 1)) same, 0 explained, 0 unexplained\$" "$T/wsaved"
	env -u LSMCONF_CHECK_COUNTS sh "$(dirname "$0")/kunit_test.sh" "$L" "$tests" "$w" \
		> "$T/kunitw.out" 2>&1
	# The plain run_kselftest.sh log's checks passed above already: only
	# this boot's, and every failure and skip.
	grep -e '^ok - .*run_kselftest\.sh -c' -e '^ok - .*debian-trixie-apparmor' \
		-e '^not ok - ' -e '^ok - .* # SKIP ' "$T/kunitw.out" > "$T/kunitw.relay"
	tap_relay "$T/kunitw.relay"
	grep -q '^kunit_test.sh: ' "$T/kunitw.out" || no "kunit_test.sh ran to its end: $(tail -1 "$T/kunitw.out")"
else
	no "make intree's install in $(dirname "$L")/intree (make check runs intree before e2e)"
fi
# 1e. Skips that upstream expects: every test of a collection on a sid
# boot where it cannot run skips with a reason, none fails: AppArmor's
# with apparmor=0, SELinux's with an lsm= list without selinux, AppArmor's
# as uid 1000 (no CAP_MAC_ADMIN) and without apparmor_parser. Every test
# binary exits 4 (kselftest's "ok N selftests: ... # SKIP") but those
# named PASSING, whose cases that need neither pass beside the skipped.
# skip_run NAME LSM APPEND PASSING
skip_run() {
	t0=$(date +%s)
	if ! "$L" run --lsm "$2" --append "$3" --results "$T/skip-$1" \
		debian:sid > "$T/skip-$1.log" 2>&1; then
		no "skip run $1 ($3) passes"
		explain "$T/skip-$1.log" "$T/skip-$1"
		return
	fi
	d=$(echo "$T/skip-$1"/latest/debian-sid-*)
	ok "skip run $1 ($3) passes in $(($(date +%s) - t0)) s: $(grep '^   skips expected: ' "$T/skip-$1.log" | sed 's/^ *//')"
	pp='[0-9]*'
	[ "$4" != none ] || pp=0
	check "skip run $1: $(grep '^   totals: ' "$T/skip-$1.log" | sed 's/^ *//')" \
		grep -q "^   totals: pass $pp, fail 0, skip [1-9][0-9]*, lost 0 -> PASS\$" "$T/skip-$1.log"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "skip run $1: every test binary exits 4 but $4" awk -v p="^($4)\$" '
		/^(not )?ok [0-9]+ / { n++; name = $NF; if ($NF == "SKIP") name = $(NF - 2)
			if (name ~ p ? !/^ok / : !/^ok .* # SKIP$/) bad++ }
		END { exit !(n && !bad) }' "$d/ktap.txt"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "skip run $1: no case failed, every skip has a reason" awk '
		/^# (not )?ok [0-9]+ / { n++; if (/^# not ok / || (/ # SKIP/ && !/ # SKIP [^ ]/)) bad++ }
		END { exit !(n && !bad) }' "$d"/guest/tests/*.ktap
}
skip_run no-apparmor apparmor apparmor=0 none
skip_run no-selinux selinux lsm=landlock,lockdown,yama,bpf none
# aafs_test reads the magic policy link as anyone, and the compression
# levels as root, without loading anything.
skip_run user apparmor lsmconf.user=1000 'features_test|aafs_test'
skip_run no-parser apparmor lsmconf.hide=apparmor_parser 'features_test|aafs_test'

# 2. A second run downloads nothing: any download would hit a dead proxy.
# One test per kernel is enough: the kernels, the guest image and its
# packages are all that is fetched.
if http_proxy=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 \
	"$L" run --results "$T/r2" --test features_test debian:trixie debian:sid \
	> "$T/run2" 2>&1; then
	ok "second run works offline ($(tail -1 "$T/run2" | sed 's/.*passed in //;s/;.*//'))"
else
	no "second run works offline"
	explain "$T/run2" "$T/r2"
fi

# 2a. Each AppArmor profile is compiled once, not once a boot (the policy
# seed, runner/vm/seed.h): r1 and the boots before it compiled what
# features_test needs on trixie; r2's features_test took every blob from
# the seed and ran the parser for none, with the same decisions.
seed_root=${LSMCONF_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/lsmconf}}
seed_root=${seed_root:-${HOME:+$HOME/.cache/lsmconf}}
seed_root=${seed_root:-/var/cache/lsmconf}/policy
# shellcheck disable=SC2016 # the scripts' own arguments
check "policy seed: the blobs the tests compiled are kept ($(find "$seed_root" -name '*.bin' 2> /dev/null | wc -l) in $seed_root)" \
	sh -c '[ -n "$(find "$1" -name "*.bin" 2> /dev/null | head -1)" ]' sh "$seed_root"
# shellcheck disable=SC2016
check "policy seed: r2's features_test on trixie compiled nothing (timing.tsv has no policy row)" \
	sh -c '[ -s "$1" ] && ! grep -q "	policy	features_test	" "$1"' sh \
	"$T/r2/latest/debian-trixie-apparmor/timing.tsv"
# shellcheck disable=SC2016
check "policy seed: r2's features_test decided as r1's on trixie" \
	sh -c 'diff -q "$1" "$2" > /dev/null' sh \
	"$T/r1/latest/debian-trixie-apparmor/guest/out/features_test/records.tsv" \
	"$T/r2/latest/debian-trixie-apparmor/guest/out/features_test/records.tsv"

# 2b. Debian's oldest supported kernel (6.1, no network_v9) passes too.
if "$L" run --results "$T/rb" debian:bookworm > "$T/run3" 2>&1; then
	ok "debian:bookworm passes ($(tail -1 "$T/run3" | sed 's/.*passed in //;s/;.*//'))"
else
	no "debian:bookworm passes"
	explain "$T/run3" "$T/rb"
fi
bookworm="$T/rb/latest/debian-bookworm-apparmor/kernel.txt"
case "$(field "$bookworm" uname)" in
6.1.*) check "bookworm (6.1) lacks network_v9/af_unix" \
	[ "$(field "$bookworm" 'feature network_v9/af_unix')" = no ] ;;
*) no "bookworm kernel identity recorded (uname '$(field "$bookworm" uname)')" ;;
esac
suite_checks bookworm "$T/rb/latest"
check "6.1 refuses policy compiled for 7.2's features (EPROTO)" \
	grep -q '^abi_test/abi\.set_7_2__send_deny__dgram\.precompiled/policy\.load	.*	EPROTO	EPROTO$' \
	"$T/rb/latest/debian-bookworm-apparmor/records.tsv"

# 2c. Pinned feature sets: sid's captured again equals the committed one
# (while sid ships that release), and policy pinned to 6.12 runs on sid.
abi=$(cd "$(dirname "$0")/../../abi" && pwd)
if "$L" abi --results "$T/abi" --out "$T/abi-out" debian:sid > "$T/abi.log" 2>&1; then
	ok "abi debian:sid: $(grep '^lsmconf: ' "$T/abi.log" | head -1)"
else
	no "abi debian:sid captures the feature set"
	explain "$T/abi.log" "$T/abi"
fi
check "abi: the set is named by MAJOR.MINOR (7.2)" [ -s "$T/abi-out/7.2" ]
check "abi: SOURCES names release, package and command" \
	grep -q '^7\.2	7\.2\.[0-9]*.*	lsmconf abi debian:sid$' "$T/abi-out/SOURCES"
rel=$(awk -F '\t' '$1 == "7.2" { print $2 }' "$abi/SOURCES")
got=$(awk -F '\t' '$1 == "7.2" { print $2 }' "$T/abi-out/SOURCES" 2> /dev/null)
if [ "$got" = "$rel" ]; then
	check "abi: recapture of $rel equals the committed abi/7.2" cmp -s "$T/abi-out/7.2" "$abi/7.2"
else
	skip "abi: recapture of sid's 7.2 equals the committed abi/7.2" \
		"sid ships ${got:-nothing captured}, abi/SOURCES names $rel: capture it again (lsmconf abi debian:sid)"
fi
expect_fail "abi without a spec" "abi: no kernel spec given" "$L" abi
expect_fail "abi --out without a value" "--out needs a value" "$L" abi --out
expect_fail "unknown pinned set" "--abi: no pinned feature set 9.9" "$L" run --abi 9.9 debian:sid
expect_fail "pinned set name with a path" "--abi: not a feature set name: ../x" \
	"$L" run --abi ../x debian:sid
if "$L" run --lsm apparmor --abi 6.12 --test unix_peer_test --results "$T/abi612" \
	debian:sid > "$T/abi612.log" 2>&1; then
	ok "run --abi 6.12 debian:sid: $(grep 'decisions:' "$T/abi612.log" | sed 's/^ *//')"
else
	no "run --abi 6.12 debian:sid passes"
	explain "$T/abi612.log" "$T/abi612"
fi
check "--abi is in kernel.txt" \
	[ "$(field "$T/abi612/latest/debian-sid-apparmor/kernel.txt" abi)" = 6.12 ]

# 3. Bad input: one clear line, non-zero exit, bounded time.
expect_fail "unknown suite" "debian:nosuchsuite: unknown suite" "$L" kernel debian:nosuchsuite
expect_fail "missing version" "no package linux-image-9.9.9-amd64" "$L" kernel debian:9.9.9
expect_fail "unknown spec kind" "unknown kind of kernel spec" "$L" kernel nfs:foo
expect_fail "unknown option" "unknown option" "$L" run --no-such-option debian:sid
expect_fail "unknown LSM" "unknown LSM nosuch" "$L" run --lsm apparmor,nosuch debian:sid
expect_fail "test in no LSM directory" "no test program nosuch_test" "$L" run --test nosuch_test debian:sid
expect_fail "mutant not found" "no mutant nosuch" "$L" mutate --mutant nosuch
# Options are checked before anything is fetched, built or booted.
expect_fail "bad bench point" "bench point bogus:none: unknown workload bogus (known: " \
	"$L" bench --results "$T/bad" --points bogus:none debian:sid debian:sid
expect_fail "bench message size out of range" "bench point tcp20:none: message size 20 is not 64 to 16384" \
	"$L" bench --results "$T/bad" --points "stream:none tcp20:none" debian:sid debian:sid
expect_fail "bad msgcost point" "msgcost point 5:none: no policy with 5 categories" \
	"$L" msgcost --results "$T/bad" --points "4:none 5:none" debian:sid
expect_fail "negative --warmup" "warmup: not a number from 0 to 1000000: -1" \
	"$L" bench --results "$T/bad" --warmup -1 debian:sid debian:sid
expect_fail "non-numeric --limit" "limit: not a positive number: abc" \
	"$L" msgcost --results "$T/bad" --limit abc debian:sid
expect_fail "bad --probe-instructions" "probe-instructions: want on or off, not maybe" \
	"$L" bench --results "$T/bad" --probe-instructions maybe debian:sid debian:sid
expect_fail "negative --probe-messages" "probe-messages: not a number from 0 to 1000000: -1" \
	"$L" bench --results "$T/bad" --probe-messages -1 debian:sid debian:sid
expect_fail "option without its value" "points needs a value" \
	"$L" bench --results "$T/bad" debian:sid debian:sid --points
check "bad options: nothing was started (no results directory)" [ ! -e "$T/bad" ]
expect_fail "unreadable file" "cannot read $T/none" "$L" kernel "file:$T/none"
expect_fail "not a bzImage" "is not an x86 bzImage" "$L" kernel file:/bin/busybox
printf 'not a debian package\n' > "$T/junk.deb"
expect_fail "corrupt .deb" "corrupt or truncated package" "$L" kernel "deb:$T/junk.deb"

# A real kernel .deb, then the same truncated.
image=$(field "$sid" image)
mkdir -p "$T/pkg/DEBIAN" "$T/pkg/boot"
cp "$image" "$T/pkg/boot/vmlinuz-0.0-e2e"
printf 'Package: e2e-kernel\nVersion: 1\nArchitecture: amd64\nMaintainer: e2e <e2e@invalid>\nDescription: e2e\n' > "$T/pkg/DEBIAN/control"
dpkg-deb -Zgzip -b "$T/pkg" "$T/k.deb" > /dev/null
if "$L" kernel "deb:$T/k.deb" > "$T/out" 2>&1 && grep -q 'e2e-kernel 1' "$T/out"; then
	ok "deb: spec provisions a kernel package"
else
	no "deb: spec provisions a kernel package"
fi
size=$(wc -c < "$T/k.deb")
head -c $((size / 2)) "$T/k.deb" > "$T/trunc.deb"
expect_fail "truncated .deb" "corrupt or truncated package" "$L" kernel "deb:$T/trunc.deb"

# 4. Kernels that cannot boot are failures with a reason, never hangs.
expect_fail "bad init" "kernel panic" "$L" run --results "$T/r3" --boot-timeout 120 \
	--test features_test --append "rdinit=/nonexistent init=/nonexistent" debian:sid
expect_fail "too little memory" "printed nothing\|kernel panic\|reset before the kernel printed anything" "$L" run --results "$T/r4" \
	--test features_test --boot-timeout 120 --memory 48 debian:sid

# 5. Tests that hang or die are failures, and their missing cases are lost.
# Test doubles live beside the checks (runner/tests/fixtures/); what the
# runner ships and reads (patches, mutants) in fixtures/.
mkdir -p "$T/tests"
for t in hang_test partial_test; do
	cc -static -O2 -o "$T/tests/$t" "$fixtures/$t.c"
done
expect_fail "per-test timeout" "hang_test.*killed after the per-test timeout of 3 s" \
	"$L" run --results "$T/r5" --tests-dir "$T/tests" --timeout 3 debian:sid
check "hung test: its unreported case is lost" \
	grep -q 'hang_test .*1 pass, 0 fail, 0 skip, 1 lost' "$T/out"
check "crashed test: killed by signal 11, 2 cases lost" \
	grep -q 'partial_test .*1 pass, 0 fail, 0 skip, 2 lost; killed by signal 11' "$T/out"
# Without --timeout the bound is the directory's kselftest settings file,
# the number run_kselftest.sh applies too.
printf '# measured: a test double\ntimeout=4\n' > "$T/tests/settings"
expect_fail "settings timeout" "hang_test.*killed after the per-test timeout of 4 s" \
	"$L" run --results "$T/r5s" --tests-dir "$T/tests" --test hang_test debian:sid
rm "$T/tests/settings"
expect_fail "boot timeout" "did not finish within 2 s" "$L" run --results "$T/r6" \
	--test features_test --boot-timeout 2 debian:sid

# 5b. Every boot is watched, not just timed: stand-in QEMUs (LSMCONF_QEMU)
# that stop with KVM's internal error, never print, or exit at once each
# fail with QEMU's own reason, well within the boot bound, after one retry.
# (TCG only here: LSMCONF_NO_KVM.) A verdict comes within seconds, not
# at the boot bound (about 400 s for this plan).
watched() {
	t0=$(date +%s)
	expect_fail "$1" "$3" env LSMCONF_NO_KVM=1 LSMCONF_QEMU="$standins/$2" \
		"$L" run --results "$T/q-$2" --test features_test --lsm apparmor debian:sid
	s=$(($(date +%s) - t0))
	check "$1: retried once, then failed ($s s)" \
		grep -q '^   boot 2 died before its tests' "$T/out"
	check "$1: the verdict within $4 s ($s s)" [ "$s" -le "$4" ]
}
watched "QEMU stops with an internal error" internal-error \
	"QEMU stopped the guest (state internal-error): KVM internal error. Suberror: 1" 60
watched "the guest never prints" silent "the guest printed nothing within 10 s" 60
# QEMU that exits with a status of its own is the host's failure, not the
# kernel's: booted again twice, then the run fails in one line with no
# verdict on the kernel (no kernel.txt, no ktap.txt).
t0=$(date +%s)
expect_fail "QEMU exits at once: a host failure" \
	"host failure: debian:sid \[apparmor\]: boot 3: QEMU exited with status 1 at console line 0, no kernel report: qemu-system-x86_64: -accel kvm: failed.*3 boots ended by the host, no verdict on the kernel" \
	env LSMCONF_NO_KVM=1 LSMCONF_QEMU="$standins/exits" \
	"$L" run --results "$T/q-exits" --test features_test --lsm apparmor debian:sid
s=$(($(date +%s) - t0))
no_verdict() {
	d="$T/q-exits/latest/debian-sid-apparmor"
	[ -d "$d/boot-3" ] && [ ! -e "$d/kernel.txt" ] && [ ! -e "$d/ktap.txt" ] &&
		[ "$(wc -l < "$T/err")" -eq 1 ] && [ ! -s "$T/out" ]
}
check "QEMU exits at once: three boots, one line, no verdict ($s s)" no_verdict
check "QEMU exits at once: the verdict within 60 s ($s s)" [ "$s" -le 60 ]
# A kernel that hits BUG() before panic= is parsed and then sits halted:
# the BUG line is quoted, and the boot ends in seconds.
watched "an early kernel BUG" early-bug \
	"the kernel crashed (.*kernel BUG at lib/string_helpers.c:1044!) and the guest did not reset within 5 s" 60

# A host that ends QEMU in the middle of a case (QEMU's own exit status 1,
# the OOM killer's SIGKILL, a SIGTERM QEMU obeys) is a host failure: no
# case brought the kernel down, no crash note, and the boot after it
# passes. host_ended NAME STANDIN REASON [LSMCONF_DIE_BY]
host_ended() {
	rm -f "$T/h-$2.state"
	if env LSMCONF_NO_KVM=1 LSMCONF_QEMU="$standins/$2" \
		LSMCONF_FAIL_STATE="$T/h-$2.state" LSMCONF_DIE_BY="${4:-}" \
		"$L" run --results "$T/h-$2" --test features_test --lsm apparmor \
		debian:sid > "$T/h.out" 2>&1; then
		ok "$1: the run passes on the boot after"
	else
		no "$1: the run passes on the boot after"
		explain "$T/h.out" "$T/h-$2"
	fi
	check "$1: $(grep -m1 '^   boot 1: ' "$T/h.out" | sed 's/^ *//' | cut -c1-110)" \
		grep -q "^   boot 1: host failure: $3 at console line [0-9]*, no kernel report" "$T/h.out"
	check "$1: in a case, but no case crashed and no crash note" sh -c \
		"grep -q 'kselftest: features_test: RUN' '$T/h-$2.state' && ! grep -q 'brought the kernel down' '$T/h.out' && ! ls '$T'/h-$2/latest/*/crash-*.txt 2> /dev/null | grep -q ."
	check "$1: two boots" grep -q 'boot+tests .* in 2 boots' "$T/h.out"
}
host_ended "QEMU exits with status 1 mid-case" exits-mid-case "QEMU exited with status 1"
host_ended "QEMU killed by SIGKILL mid-case" killed-mid-case "QEMU was killed by signal 9"
host_ended "QEMU ended by SIGTERM mid-case" exits-mid-case \
	"QEMU shut down on a signal from the host" TERM
# A host that starves QEMU of CPU (SCHED_IDLE beside a busy loop on one
# CPU): the silence deadline passes while QEMU waits for a CPU, a host
# failure by the starvation rule. A guest that prints nothing while QEMU
# idles (silent, above) stays the kernel's.
rm -f "$T/h-starved.state"
if env LSMCONF_NO_KVM=1 LSMCONF_QEMU="$standins/starved" \
	LSMCONF_FAIL_STATE="$T/h-starved.state" \
	"$L" run --results "$T/h-starved" --test features_test --lsm apparmor \
	debian:sid > "$T/h.out" 2>&1; then
	ok "a starved QEMU: the run passes on the boot after"
else
	no "a starved QEMU: the run passes on the boot after"
	explain "$T/h.out" "$T/h-starved"
fi
if grep -q '^   boot 1: host failure: the host starved QEMU of CPU (a thread of it waited [0-9]* s of [0-9]* s for one) at console line 0, no kernel report: the guest printed nothing' "$T/h.out"; then
	ok "a starved QEMU: $(grep -m1 '^   boot 1: ' "$T/h.out" | sed 's/^ *//' | cut -c1-110)"
else
	no "a starved QEMU: boot 1 is a host failure by the starvation rule"
	explain "$T/h.out" "$T/h-starved"
fi

# Bounds are checked before anything is fetched or booted.
long=$(head -c 5000 /dev/zero | tr '\0' x)
expect_fail "--append longer than the kernel takes" \
	"append: the kernel command line would be .* characters.*x86 takes at most 2047" \
	"$L" run --results "$T/bad" --append "$long" --test features_test debian:sid
expect_fail "--cpus above QEMU's pc machine" "cpus: not a number from 1 to 255" \
	"$L" run --results "$T/bad" --cpus 300 debian:sid
expect_fail "--memory out of range" "memory: 99999999 MB is out of range" \
	"$L" run --results "$T/bad" --memory 99999999 debian:sid
expect_fail "empty --test" "test: empty test name" \
	"$L" run --results "$T/bad" --test "" debian:sid
check "bounds: nothing was started (no results directory)" [ ! -e "$T/bad" ]

# KVM that starts but cannot run a guest: the boot falls back to TCG, says
# why once, and remembers it for this host and emulator. (A copy of the
# stand-in: a new emulator binary, so no answer is remembered for it yet.)
# kvm_run NAME QEMU: features_test on sid with KVM offered (/dev/null
# stands for /dev/kvm) and QEMU as the emulator must pass; its output in
# $T/NAME.out and .err, its results in $T/NAME.
kvm_run() {
	t0=$(date +%s)
	if env LSMCONF_KVM_DEVICE=/dev/null LSMCONF_QEMU="$2" \
		"$L" run --results "$T/$1" --test features_test --lsm apparmor debian:sid \
		> "$T/$1.out" 2> "$T/$1.err"; then
		ok "$1: the run passes under TCG ($(($(date +%s) - t0)) s)"
	else
		no "$1: the run passes under TCG"
		sed 's/^/#   /' "$T/$1.out" "$T/$1.err" | tail -5
	fi
}
mkdir -p "$T/qemu"
cp "$standins/kvm-broken" "$standins/internal-error" "$T/qemu/"
kvm_run kvm "$T/qemu/kvm-broken"
check "broken KVM: one note quoting QEMU ($(head -1 "$T/kvm.err" | cut -c1-100))" \
	grep -q 'using TCG: KVM did not run a guest on this host (QEMU stopped .*KVM internal error.*remembered for 24 h' "$T/kvm.err"
check "broken KVM: the first boot was the test (qemu-kvm.log kept)" \
	grep -q 'KVM internal error' "$T/kvm/latest/debian-sid-apparmor/qemu-kvm.log"
env LSMCONF_KVM_DEVICE=/dev/null LSMCONF_QEMU="$T/qemu/kvm-broken" \
	"$L" run --results "$T/kvm2" --test features_test --lsm apparmor debian:sid \
	> /dev/null 2> "$T/kvm2.err"
check "broken KVM: the next run remembers it and does not try KVM again" \
	sh -c "grep -q 'using TCG: KVM did not run a guest on this host (remembered: ' '$T/kvm2.err' && [ ! -e '$T/kvm2/latest/debian-sid-apparmor/qemu-kvm.log' ]"
check "broken KVM: results say tcg" \
	grep -q '^accel	tcg$' "$T/kvm/latest/debian-sid-apparmor/kernel.txt"

# KVM that fails after console output (the real setup code prints
# "Probing EDD" before the decompressor's emulation failure), on a host the
# memo remembers as KVM: the internal error sends this very boot to TCG at
# once, and the memo says TCG afterwards, quoting QEMU.
cp "$standins/kvm-edd" "$T/qemu/"
q="$T/qemu/kvm-edd"
# The memo's key (runner/vm/accel.c): host, kernel, emulator, its size and time.
key="$(uname -n)|$(uname -r)|$q|$(stat -c %s "$q")|$(stat -c %Y "$q")"
mkdir -p "$cache"
printf '%s\tkvm\t%s\tseeded by e2e\n' "$key" "$(date +%s)" >> "$cache/accel.tsv"
kvm_run edd "$q"
d="$T/edd/latest/debian-sid-apparmor"
check "KVM error after console output: one boot, retried under TCG at once" \
	grep -q 'boot+tests .* in 1 boot' "$T/edd.out"
check "KVM error after console output: the console said Probing EDD (console-kvm.log)" \
	grep -q 'Probing EDD' "$d/console-kvm.log"
check "KVM error after console output: the note quotes QEMU" \
	grep -q 'using TCG: KVM did not run a guest on this host (QEMU stopped .*KVM internal error' "$T/edd.err"
check "KVM error after console output: the memo now says tcg" \
	grep -qF "$key	tcg	" "$cache/accel.tsv"

# A kernel bug costs its case, not the run: the third of five cases
# crashes the kernel; the runner names it, boots again and runs the rest.
mkdir -p "$T/crash"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/crash/crash_test" "$fixtures/crash_test.c"
t0=$(date +%s)
expect_fail "a case that crashes the kernel" \
	"case global.third_crashes_the_kernel brought the kernel down" \
	"$L" run --results "$T/r8" --tests-dir "$T/crash" --lsm apparmor debian:sid
check "crash: cases 1, 2, 4, 5 pass, case 3 failed, nothing lost ($(($(date +%s) - t0)) s)" \
	grep -q 'crash_test .*4 pass, 1 fail, 0 skip, 0 lost' "$T/out"
check "crash: two boots" grep -q 'boot+tests .* in 2 boots' "$T/out"
d="$T/r8/latest/debian-sid-apparmor"
check "crash: the trace is kept (crash-1.txt)" grep -q 'sysrq triggered crash' "$d/crash-1.txt"
check "crash: the case is a failed case in ktap.txt" \
	grep -q '^# not ok 0 global.third_crashes_the_kernel' "$d/ktap.txt"

# The same crash under run --collection: run_kselftest.sh -c runs
# a_diag_test (passes, two records as diagnostics), then crash_test,
# which brings the boot down before the one frame: a_diag_test's results
# come from the live port, crash_test's other cases from a second boot.
mkdir -p "$T/crashw"
cp "$T/crash/crash_test" "$T/crashw/"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/crashw/a_diag_test" \
	"$fixtures/diag_test.c"
t0=$(date +%s)
expect_fail "run --collection: a case that crashes the kernel" \
	"run_kselftest.sh -c ended in crash_test before its results frame: .*finished tests taken from the live port: 1," \
	"$L" run --collection --results "$T/r8w" --tests-dir "$T/crashw" --lsm apparmor debian:sid
crashw_ok() {
	grep -q 'a_diag_test .*ok: 1 pass, 0 fail, 0 skip, 0 lost' "$T/out" &&
		grep -q 'crash_test .*4 pass, 1 fail, 0 skip, 0 lost; case global.third_crashes_the_kernel brought' "$T/out" &&
		grep -q 'boot+tests .* in 2 boots' "$T/out" &&
		grep -q 'decisions: 2 recorded, 0 not as expected' "$T/out"
}
check "run --collection crash: a_diag_test from the live port, crash_test's cases 1, 2, 4, 5 pass in boot 2, case 3 failed, two records ($(($(date +%s) - t0)) s)" \
	crashw_ok

# A test that leaves a profile loaded (outside the test prefix) fails,
# though its one case passed: AA_HARNESS_MAIN's check after the cases.
mkdir -p "$T/leak"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/leak/leak_test" \
	"$fixtures/leak_test.c" -lapparmor 2> /dev/null
"$L" run --results "$T/rleak" --tests-dir "$T/leak" --lsm apparmor debian:sid \
	> "$T/leak.out" 2>&1
rc=$?
check "policy left loaded: the program fails though its case passed (exit $rc)" \
	grep -q 'leak_test .*NOT OK: 1 pass, 0 fail.*exited with status 1' "$T/leak.out"
check "policy left loaded: the program says so" grep -q \
	'^# # test policy left loaded: the profile list differs' \
	"$T/rleak/latest/debian-sid-apparmor/guest/tests/leak_test.ktap"

# A known kernel bug is reported as itself, and fails again once the
# kernel behaves otherwise than listed (here: another errno).
mkdir -p "$T/known"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/known/known_bug_test" \
	"$fixtures/known_bug_test.c"
# Kernels are named exactly: sid's release, from the crash run above.
sid_release=$(field "$T/r8/latest/debian-sid-apparmor/kernel.txt" uname)
printf '%s\n' "bug: fixture-enoent" "kernels: $sid_release" \
	"cases: known_bug_test/global.wrong_decision" \
	"decisions: known_bug_test/global.wrong_decision/open" \
	"observed: ENOENT" "fatal: -" "trace: -" "function: none (a fixture)" \
	"evidence: the fixture's model says allow" "reproduce: runner/tests/e2e.sh" "report: -" \
	> "$T/known/list"
if "$L" run --results "$T/r9" --tests-dir "$T/known" --lsm apparmor \
	--known-bugs "$T/known/list" debian:sid > "$T/out" 2>&1; then
	ok "known bug: the run passes"
else
	no "known bug: the run passes"
	explain "$T/out" "$T/r9"
fi
check "known bug: reported by name with its case and decision" \
	grep -q 'known kernel bug fixture-enoent: 1 cases, 1 decisions' "$T/out"
check "known bug: known.tsv names the decision" \
	grep -q '^known_bug_test/global.wrong_decision/open	fixture-enoent$' "$T/r9/latest/debian-sid-apparmor/known.tsv"
sed 's/^observed: ENOENT/observed: EPERM/' "$T/known/list" > "$T/known/changed"
sed "s/^kernels: .*/kernels: 7.2.*/" "$T/known/list" > "$T/known/glob"
sed "s|^cases: .*|cases: known_bug_test/*|" "$T/known/list" > "$T/known/all"
sed "s|^kernels: .*|kernels: build:linux-source-7.2_7.2.13-1+patched|" "$T/known/list" > "$T/known/patched"
printf 'records: known/wrong/open\n' | cat "$T/known/list" - > "$T/known/records"
expect_fail "known bug listed with another outcome: the run fails" \
	"known kernel bug fixture-enoent no longer shows" \
	"$L" run --results "$T/r9" --tests-dir "$T/known" --lsm apparmor \
	--known-bugs "$T/known/changed" debian:sid
expect_fail "malformed known bugs list" "known bugs: line 1: not" \
	"$L" run --known-bugs "$fixtures/crash_test.c" debian:sid
expect_fail "known bugs: a kernel glob is refused" "kernel \"7.2.\*\" is a glob" \
	"$L" run --known-bugs "$T/known/glob" debian:sid
expect_fail "known bugs: a case glob (a whole binary) is refused" \
	"case \"known_bug_test/\*\" is not an exact" \
	"$L" run --known-bugs "$T/known/all" debian:sid
expect_fail "known bugs: +patched (every patched build) is refused" \
	"names every patched build" \
	"$L" run --known-bugs "$T/known/patched" debian:sid
expect_fail "known bugs: a records: key (the first format) is refused" \
	"records: is no longer read" \
	"$L" run --known-bugs "$T/known/records" debian:sid

# A listed oops explains only its own signature: a listed case that ends
# the boot by a hang, or by another trace, fails the run, named as such;
# and a WARNING in a boot that later crashed is still reported.
# (known_crash_test.c; its "slow.listed" case stands for the real bug's.)
printf '%s\n' "bug: fixture-oops" "kernels: $sid_release" \
	"cases: known_crash_test/slow.listed" "decisions: -" "observed: oops" \
	"fatal: BUG: kernel NULL pointer dereference" \
	"trace: aa_label_merge aa_unix_file_perm" "function: none (a fixture)" \
	"evidence: the real bug's trace" "reproduce: runner/tests/e2e.sh" "report: -" \
	> "$T/known/oops"
mkdir -p "$T/khang" "$T/ktrace"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -DLISTED_HANG -o "$T/khang/known_crash_test" \
	"$fixtures/known_crash_test.c"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/ktrace/known_crash_test" "$fixtures/known_crash_test.c"
t0=$(date +%s)
expect_fail "known oops: a listed case ending in a hang fails the run" \
	"is listed for known kernel bug fixture-oops but the boot ended without a kernel report (a hang or a timeout" \
	"$L" run --results "$T/r10" --tests-dir "$T/khang" --lsm apparmor \
	--timeout 300 --boot-timeout 60 --known-bugs "$T/known/oops" debian:sid
check "known oops, hang: the case is a failure, not the bug ($(($(date +%s) - t0)) s)" \
	grep -q 'known_crash_test .*NOT OK: 2 pass, 1 fail, 0 skip, 0 lost; case slow.listed brought the kernel down' "$T/out"
t0=$(date +%s)
expect_fail "known oops: a listed case ending in another trace fails the run" \
	"is listed for known kernel bug fixture-oops but the kernel's report is another (not \"BUG: kernel NULL pointer dereference\" naming aa_label_merge aa_unix_file_perm)" \
	"$L" run --results "$T/r11" --tests-dir "$T/ktrace" --lsm apparmor \
	--known-bugs "$T/known/oops" debian:sid
check "known oops, other trace: the case is a failure, not the bug ($(($(date +%s) - t0)) s)" \
	grep -q 'known_crash_test .*NOT OK: 2 pass, 1 fail, 0 skip, 0 lost' "$T/out"
check "known oops, other trace: no known-crashes.tsv" \
	test ! -e "$T/r11/latest/debian-sid-apparmor/known-crashes.tsv"
# Listed crashes not as listed: a listed case that does not bring the
# kernel down sends the tests split for them back whole, after the main
# boot, as without the list; nothing of theirs is judged twice.
sed 's|^cases: .*|cases: known_crash_test/slow.listed known_crash_test/global.last|' \
	"$T/known/oops" > "$T/known/notlisted"
expect_fail "known oops not as listed: the split test runs again whole" \
	"of the listed crashes: case known_crash_test/global.last did not bring the kernel down, not as the known bugs list says; the tests they split run again whole" \
	"$L" run --results "$T/r12" --tests-dir "$T/ktrace" --lsm apparmor \
	--known-bugs "$T/known/notlisted" debian:sid
check "known oops not as listed: every case accounted once (2 pass, 1 fail, 0 lost)" \
	grep -q 'known_crash_test .*NOT OK: 2 pass, 1 fail, 0 skip, 0 lost' "$T/out"
# The case is the one the watcher saw open on the live port: under load
# the WARNING, made at the start of its case, may come before the RUN line
# (docs/runner-boot.md), so the case is named only when it is that one.
check "a WARNING in a boot that later crashed is reported, with its test" \
	grep -Eq 'problem: boot 1: kernel WARNING in test known_crash_test(, case global.warns)? at console line [0-9]*: WARNING: CPU: 0 PID: 1 at lsmconf/known_crash_test.c:1' "$T/out"

# No silent skips (issue 21). Where policy may be loaded a missing
# profile template fails its test, naming the path (not a skip); a test
# whose cases pass without recording a decision fails; a record line that
# does not fit aborts its writer instead of being cut (on the host).
mkdir -p "$T/skips" "$T/skips-host"
cp -R "$tests/apparmor/features_test" "$tests/apparmor/profiles" "$T/skips/"
rm "$T/skips/profiles/trivial.profile"
cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/skips/unrecorded_test" \
	"$fixtures/unrecorded_test.c"
check "an overlong record aborts its writer and writes nothing" sh -c \
	"LSMCONF_RESULTS='$T/skips-host' '$T/skips/unrecorded_test' 2>&1 | grep -q '^ok 2 global.overlong_record_aborts' && [ ! -s '$T/skips-host/records.tsv' ]"
expect_fail "skips: the run fails" "features_test .*NOT OK" \
	"$L" run --results "$T/r12" --tests-dir "$T/skips" --lsm apparmor debian:sid
check "a missing template fails its cases, by path, and skips none" sh -c \
	"grep -q 'missing /lsmconf/profiles/trivial.profile' '$T/r12/latest/debian-sid-apparmor/ktap.txt' && grep -q 'features_test .*: [0-9]* pass, [1-9][0-9]* fail, 0 skip' '$T/out'"
check "a test that recorded no decision fails" \
	grep -q 'unrecorded_test .*NOT OK: 2 pass, 0 fail, 0 skip, 0 lost; planned 2 cases and recorded no decision' "$T/out"

# An interrupted lsmconf leaves no QEMU behind: SIGTERM (its handler) and
# SIGKILL (QEMU dies with its parent). The guest runs hang_test for 60 s,
# so eight seconds is inside the boot.
# ("[q]emu" keeps the pattern from matching the command that holds it.)
for sig in TERM KILL; do
	timeout -s "$sig" 8 "$L" run --results "$T/int-$sig" --tests-dir "$T/tests" \
		--test hang_test --timeout 60 debian:sid > /dev/null 2> "$T/int-$sig.err"
	rc=$?
	# timeout(1) says 124 when it sent the signal, 128+9 for SIGKILL.
	case $rc in
	124 | 137) ok "SIG$sig to lsmconf: it was still running (exit $rc)" ;;
	*) no "SIG$sig to lsmconf: it was still running (exit $rc)" ;;
	esac
	timeout 5 pidwait -f "[q]emu-system.*$T/int-$sig"
	if ! pgrep -f "[q]emu-system.*$T/int-$sig" > /dev/null; then
		ok "SIG$sig to lsmconf: no QEMU left"
	else
		no "SIG$sig to lsmconf: no QEMU left"
		pkill -KILL -f "[q]emu-system.*$T/int-$sig"
	fi
done
check "SIGTERM: a one-line note" grep -q 'interrupted by signal 15' "$T/int-TERM.err"

# A missing package: one line naming it and the command, exit 1 (not root).
# (Copied where the unprivileged user can read them.)
mkdir -m 755 "$T/deps"
cp "$(dirname "$0")/../deps.sh" "$T/deps/"
printf 'lsmconf-no-such-package\n' > "$T/deps/pkgs"
chmod a+rx "$T"
expect_fail "missing package, not root" \
	"missing packages: lsmconf-no-such-package; install them with" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh "$T/deps/deps.sh" "$T/deps/pkgs"

# 6. One case alone, as the README says.
if "$L" run --results "$T/r7" --test unix_peer_test \
	--args "-r unix_peer.abi_5_0__stream__abstract__send_deny__unconfined.decisions" \
	debian:sid > "$T/run7" 2>&1; then
	ok "one matrix case alone ($(grep -c . "$T/r7/latest/debian-sid-apparmor/records.tsv") lines of records)"
else
	no "one matrix case alone"
	sed 's/^/#   /' "$T/run7" | tail -5
fi

# 7. The benchmark pipeline, small: three boots, samples, statistics, plots.
# The same boots carry a short form of each connection workload kind
# (stream, streamcred, tcp, udp, the inet label): no boot of their own.
bench_points="socketpair:none twoproc:both stream:none streamcred:none tcp64:none udp64:inet"
if "$L" bench --results "$T/bench" --points "$bench_points" \
	--invocations 1 --warmup 1 --rounds 3 --messages 4096 \
	--probe-messages 256 --probe-instructions off \
	debian:trixie debian:sid > "$T/bench.out" 2>&1; then
	ok "bench A -> B -> A2 runs ($(grep -c . "$T/bench/latest/samples.tsv") sample lines)"
else
	no "bench A -> B -> A2 runs"
	sed 's/^/#   /' "$T/bench.out" | tail -10
fi
# summary.tsv: a header, then one line per point, keyed by its name.
for pt in $bench_points; do
	check "bench: a summary line for $pt" grep -q "^$pt	" "$T/bench/latest/summary.tsv"
done
check "bench: nothing but the header and the points in summary.tsv" \
	[ "$(grep -c . "$T/bench/latest/summary.tsv")" -eq $(($(echo "$bench_points" | wc -w) + 1)) ]
plots() { [ -s "$1/bench.svg" ] && [ -s "$1/bench.png" ] && [ -s "$1/points.svg" ] && [ -s "$1/points.png" ]; }
check "bench: plots drawn" plots "$T/bench/latest"
check "bench: the report names its clock" grep -q 'clock: ' "$T/bench.out"
kcidb_valid bench "$T/bench/latest"
check "kcidb of bench: each point of each boot a DONE test with its number" \
	[ "$(grep -c '"status": "DONE"' "$T/kcidb-bench.json")" -eq $(($(echo "$bench_points" | wc -w) * 3)) ]
# Path evidence (the probe after each point): 6.12 has no
# apparmor_unix_may_send (no fine-grained AF_UNIX mediation), 7.2 calls it
# once per datagram sent (security_unix_may_send, unix_dgram_sendmsg).
check "bench: path evidence names apparmor_unix_may_send absent -> 1.00 calls/msg" \
	grep -q '^       apparmor_unix_may_send absent -> 1.00 calls/msg (A2 absent)$' "$T/bench.out"

tap_end
