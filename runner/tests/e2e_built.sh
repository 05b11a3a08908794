#!/bin/sh
# End-to-end checks of kernels built from source (section 8 of the
# end-to-end checks; make e2e runs it beside e2e.sh): builds, compares,
# the bench, mutate and series. Prints one line per check, as e2e.sh.
#   e2e_built.sh path/to/lsmconf
set -u
e2e_script=e2e_built.sh
# shellcheck source=runner/tests/e2e_common.sh
. "$(dirname "$0")/e2e_common.sh"

# 8. Kernels built from source: the early-return patch changes no
# decision; a wrong one is caught and its cases named.
# With LSMCONF_SKIP_BUILD set (a developer's shortcut, never CI's) the
# section runs in a skip block: every command that builds, boots or
# reads a build goes through skippable, which then runs nothing, and
# each check prints its skip line (its name's values are then not
# results). A new command here that builds or boots needs skippable.
built_from_source() {
	orig=build:debian-source:7.2
	good="$orig+$shipped/patches/unconfined-early-return.patch"
	wrong="$orig+$shipped/patches/wrong-early-return-either-peer.patch"
	if skippable timeout -k 5 3000 "$L" compare --results "$T/b1" "$orig" "$good" > "$T/b1.out" 2>&1; then
		ok "compare original vs early-return patch: $(grep 'cases:' "$T/b1.out" | sed 's/^ *//')"
	else
		no "compare original vs early-return patch has nothing unexplained"
		sed 's/^/#   /' "$T/b1.out" | tail -20
	fi
	check "build pair: config check passed" grep -q '^config check: passed' "$T/b1.out"
	# Path evidence (issue 25), one short bench: each datagram runs
	# apparmor_unix_may_send(), which checks both directions, each through
	# aa_unix_peer_perm() -> unix_peer_perm() (security/apparmor/lsm.c,
	# af_unix.c): 2 calls per message. The early return leaves
	# aa_unix_peer_perm() before unix_peer_perm() when the label is
	# unconfined, as both peers are here: 0.
	# The same boots' instruction profile (--profile on: a QEMU plugin
	# counts each kernel function's instructions in the measured rounds):
	# unix_peer_perm()'s instructions per message drop to 0 likewise.
	skippable timeout -k 5 3000 "$L" bench --results "$T/bp" --points socketpair:none \
		--invocations 1 --warmup 0 --rounds 2 --messages 1024 \
		--probe-messages 256 --probe-instructions off --profile on \
		"$orig" "$good" > "$T/bp.out" 2>&1
	check "bench path evidence: early return, unix_peer_perm 2 -> 0 calls/msg" \
		grep -q '^       unix_peer_perm 2.00 -> 0.00 calls/msg (A2 2.00)$' "$T/bp.out"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "bench path evidence: path.tsv has it, A and A2 agree" awk -F '\t' \
		'$1 == "socketpair:none" && $2 == "unix_peer_perm" && $3 == "calls" &&
		$4 == "2.0000" && $5 == "0.0000" && $6 == "2.0000" && $7 == "yes" &&
		$8 == "yes" { f = 1 } END { exit !f }' "$T/bp/latest/path.tsv"
	# A QEMU that cannot load the plugin (another plugin API version)
	# runs the bench without it and says so: the profile checks skip.
	noprofile=$(sed -n 's/^   --profile on: no instruction profile (\(.*\))$/\1/p' "$T/bp.out")
	if [ -n "$noprofile" ]; then
		skip "bench profile: unix_peer_perm's instructions per message drop to 0 (A2 as A)" \
			"QEMU ran the bench without the instruction plugin: $noprofile"
		skip "bench profile: profile.tsv has unix_peer_perm's instructions gone in B, A = A2" \
			"QEMU ran the bench without the instruction plugin: $noprofile"
	else
		check "bench profile: unix_peer_perm's instructions per message drop to 0 (A2 as A): $(grep '^       unix_peer_perm .* -> 0.00 (A2 ' "$T/bp.out" | sed 's/^ *//')" \
			grep -q '^       unix_peer_perm [1-9][0-9.]* -> 0.00 (A2 [1-9][0-9.]*)$' "$T/bp.out"
		# shellcheck disable=SC2016 # awk fields, not shell variables
		check "bench profile: profile.tsv has unix_peer_perm's instructions gone in B, A = A2" \
			awk -F '\t' '$1 == "socketpair:none" && $2 == "unix_peer_perm" &&
			$3 > 0 && $4 == "0.0000" && $5 == $3 && $6 == "yes" { f = 1 }
			END { exit !f }' "$T/bp/latest/profile.tsv"
	fi
	# The matrix alone catches it (and names the case below).
	skippable timeout -k 5 3000 "$L" compare --lsm apparmor --test unix_peer_test \
		--results "$T/b2" "$orig" "$wrong" > "$T/b2.out" 2>&1
	rc=$?
	check "wrong patch: compare fails (exit $rc)" [ "$rc" -eq 1 ]
	check "wrong patch: cases unexplained: $(grep 'cases:' "$T/b2.out" | sed 's/^ *//')" \
		grep -q '^   unexplained ' "$T/b2.out"
	check "wrong patch: names a changed matrix case in compare.tsv" grep -q \
		"^unix_peer_test/unix_peer.abi_5_0__dgram__abstract__send_deny__unconfined.decisions/sender.sendto	unexplained	EACCES	allow	" \
		"$T/b2/latest/compare.tsv"
	# A patch must not explain itself (issue 21): it stops advertising
	# network_v8/tcp-fast-open and drops the fast-open connect check.
	# Both kernels are built from one source, so the feature difference
	# is a finding and explains no decision; the connects it lets
	# through are loosened cases, every one named.
	tfo="$orig+$shipped/patches/fastopen-unadvertised-bypass.patch"
	skippable timeout -k 5 3000 "$L" compare --lsm apparmor --test inet_test \
		--results "$T/b3" "$orig" "$tfo" > "$T/b3.out" 2>&1
	rc=$?
	check "fast-open patch: compare fails (exit $rc)" [ "$rc" -eq 1 ]
	src1=$(field "$T/b3/latest/build-debian-source-7.2-apparmor/kernel.txt" source)
	src2=$(field "$(ls -d "$T"/b3/latest/*fastopen*-apparmor)/kernel.txt" source)
	one_source() { [ -n "$src1" ] && [ "$src1" = "$src2" ]; }
	check "fast-open patch: both kernels record one source ($src1)" one_source
	check "fast-open patch: the feature difference is unexplained" grep -q \
		'^   unexplained feature network_v8/tcp-fast-open: yes -> -$' "$T/b3.out"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "fast-open patch: no case explained by a feature" awk -F '\t' \
		'NR > 1 && $7 == "feature" { bad = 1 } END { exit bad }' \
		"$T/b3/latest/compare.tsv"
	# Every loosened case of compare.tsv has its line in the report
	# (ids hold '/', '&' and '.': matched as fixed strings).
	n_loose=$(awk -F '\t' '$6 == "loosened"' "$T/b3/latest/compare.tsv" | grep -c .)
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "fast-open patch: every loosened case printed ($n_loose; $(grep '^   -- loosened' "$T/b3.out" | sed 's/^ *-- //'))" \
		awk -F '\t' 'NR == FNR { if (FNR > 1 && $6 == "loosened") want[$1] = 1; next }
		/^   unexplained .* -> allow / { sub(/^   unexplained /, ""); seen[substr($0, 1, index($0, ": ") - 1)] = 1 }
		END { for (k in want) { n++; if (!(k in seen)) exit 1 } exit !n }' \
		"$T/b3/latest/compare.tsv" "$T/b3.out"
	# The original's results are never produced twice (work/reuse.c): the
	# same compare again boots the patched kernel only, and says so.
	skippable timeout -k 5 3000 "$L" compare --lsm apparmor --test inet_test \
		--results "$T/b3r" "$orig" "$tfo" > "$T/b3r.out" 2>&1
	rc=$?
	check "compare again: the original's boot reused, not booted" grep -q \
		'^== reused: build-debian-source-7.2-apparmor.s results of an earlier boot' "$T/b3r.out"
	check "compare again: exit $rc and compare.tsv as the first time" \
		sh -c "[ $rc -eq 1 ] && cmp -s '$T/b3/latest/compare.tsv' '$T/b3r/latest/compare.tsv'"
	# The same patch against Debian's own binary of the same release
	# (issue 37): debian:sid is 7.2.13 as the source build is, so the two
	# are one upstream version under two names, and the flipped flag
	# still explains nothing: the feature difference is unexplained and
	# listed first, the loosened connects unexplained, exit 1.
	skippable timeout -k 5 3000 "$L" compare --lsm apparmor --test inet_test \
		--results "$T/b3s" debian:sid "$tfo" > "$T/b3s.out" 2>&1
	rc=$?
	check "fast-open patch vs debian:sid: compare fails (exit $rc)" [ "$rc" -eq 1 ]
	check "fast-open patch vs debian:sid: one upstream version under two names" grep -q \
		'^   identity: upstream 7\.2\.13 (package .*) vs upstream 7\.2\.13 (source .*): one upstream version' "$T/b3s.out"
	check "fast-open patch vs debian:sid: the feature difference is unexplained" grep -q \
		'^   unexplained feature network_v8/tcp-fast-open: yes -> -$' "$T/b3s.out"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "fast-open patch vs debian:sid: loosened cases, none explained by a feature ($(grep '^   -- loosened' "$T/b3s.out" | sed 's/^ *-- //'))" \
		awk -F '\t' 'NR > 1 && $7 == "feature" { bad = 1 } NR > 1 && $6 == "loosened" && $2 == "unexplained" { n++ }
		END { exit bad || !n }' "$T/b3s/latest/compare.tsv"
	# Tests cannot wait on a misbehaving kernel (issue 21): with
	# network_v9/af_unix no longer advertised the models expect other
	# decisions, so the run fails and features_test names the
	# inconsistency, but every test ends well inside its limit, none
	# killed, no case lost, each decision recorded.
	unadv="$orig+$shipped/patches/af-unix-unadvertised.patch"
	skippable timeout -k 5 3000 "$L" run --lsm apparmor --results "$T/b4" --test features_test \
		--test live_test --test unix_rules_test "$unadv" > "$T/b4.out" 2>&1
	rc=$?
	check "af_unix unadvertised: the run fails (exit $rc)" [ "$rc" -eq 1 ]
	check "af_unix unadvertised: features_test names it" grep -q \
		'network_v9 is advertised, but network_v9/af_unix=no' "$T"/b4/latest/*-apparmor/ktap.txt
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "af_unix unadvertised: every test ends within 60 s, nothing lost ($(awk \
		'$1 ~ /_test$/ { printf "%s %s s; ", $1, $(NF - 1) }' "$T/b4.out"))" awk '
		$1 ~ /_test$/ { n++; if ($(NF - 1) + 0 >= 60 || !/, 0 lost/ || /killed/) bad = 1 }
		END { exit bad || n != 3 }' "$T/b4.out"

	# The real trade-off of 6456ccbd2ff7, undone on 7.2: old-ABI network
	# rules stop applying to pathname sockets. Only unix_coarse_test (the
	# old-ABI matrix) runs. The rule: the commit changed the routing of
	# pathname sockets under policies without network_v9 rules only, so
	# every case that differs is an ABI 3.0/4.0 pathname case, and the
	# rules that leave socket() allowed show bind, listen and accept
	# loosened (EACCES -> allow).
	rev="$orig+$shipped/patches/revert-6456ccbd2ff7.patch"
	skippable timeout -k 5 3000 "$L" compare --lsm apparmor --test unix_coarse_test \
		--results "$T/b5" "$orig" "$rev" > "$T/b5.out" 2>&1
	rc=$?
	check "revert 6456ccbd2ff7: compare fails (exit $rc; $(grep 'cases:' "$T/b5.out" | sed 's/^ *//'))" [ "$rc" -eq 1 ]
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "revert 6456ccbd2ff7: every changed case is an old-ABI pathname case" awk -F '\t' \
		'NR > 1 && $2 != "same" { n++; if ($1 !~ /\.abi_[34]_0\.decisions\/[^\/]*\/[^\/]*\/pathname\//) bad = 1 }
		END { exit bad || !n }' "$T/b5/latest/compare.tsv"
	for op in deny_bind/stream/pathname/confined_receiver/receiver.bind \
		deny_stream_listen/stream/pathname/confined_receiver/receiver.listen \
		deny_stream_listen/stream/pathname/confined_receiver/receiver.accept; do
		check "revert 6456ccbd2ff7: ${op##*.} loosened ($op)" grep -q \
			"^unix_coarse_test/unix_coarse.abi_3_0.decisions/$op	unexplained	EACCES	allow	" \
			"$T/b5/latest/compare.tsv"
	done

	# SELinux msgsnd cost: flat on Debian's 7.2, flagged with the
	# per-message category walk patched in.
	walk="$orig+$shipped/patches/selinux-category-walk.patch"
	skippable timeout -k 5 3000 "$L" msgcost --results "$T/m1" debian:sid "$walk" > "$T/m1.out" 2>&1
	rc=$?
	check "msgcost: the category-walk patch is flagged (exit $rc)" [ "$rc" -eq 1 ]
	sum="$T/m1/latest/summary.tsv"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "msgcost: debian:sid is flat at every sender level" awk -F '\t' \
		'$1 == "debian:sid" { n++; if ($11 != "flat") bad = 1 } END { exit bad || n != 3 }' "$sum"
	for lv in none high low; do
		# shellcheck disable=SC2016 # awk fields, not shell variables
		check "msgcost: the walk grows at level $lv ($(awk -F '\t' -v k="$walk" -v l="$lv" \
			'$1 == k && $2 == l { print $5 " -> " $6 " instructions" }' "$sum"))" \
			awk -F '\t' -v k="$walk" -v l="$lv" \
			'$1 == k && $2 == l && $11 == "grows" { f = 1 } END { exit !f }' "$sum"
	done
	# mutants_killed WHAT RESULTS [OPTION...] -- MUTANT...: lsmconf mutate
	# with those options kills every mutant named (output in RESULTS.out).
	mutants_killed() {
		what=$1
		res=$2
		shift 2
		opts=""
		while [ "$1" != -- ]; do
			opts="$opts $1"
			shift
		done
		shift
		for m in "$@"; do opts="$opts --mutant $m"; done
		# shellcheck disable=SC2086 # one word per option
		skippable timeout -k 5 3000 "$L" mutate --results "$res" $opts > "$res.out" 2>&1
		rc=$?
		check "$what: the run passes: $(grep '^== mutation score' "$res.out" | sed 's/^== //') (exit $rc)" \
			[ "$rc" -eq 0 ]
		for m in "$@"; do
			check "mutant $m killed" grep -q "^== mutant $m: killed" "$res.out"
		done
	}
	# Mutants: a subset here, one per kind of mistake (make mutate runs
	# all of them against the whole suite); each must be killed, here by
	# the two tests that kill them (live_test: 01, 05, 08, 09; the matrix:
	# 07). The whole AppArmor suite takes four boots on 7.2: the known
	# oopses of unix_lifecycle_test.
	mutants_killed mutate "$T/mu" --test live_test --test unix_peer_test \
		-- 01-early-return-either-peer \
		05-first-profile-only 07-pathname-fallback-dropped \
		08-stale-label-used 09-errno-eperm
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "mutate: mutants.tsv names the killing cases" awk -F '\t' \
		'NR > 1 && $2 == "killed" && $11 != "-" { n++ } END { exit n != 5 }' \
		"$T/mu/latest/mutants.tsv"
	# The mutants of the policy-depth tests, one per kind, each killed by
	# its own test (unix_peer_test alone lets them all through).
	# unix_lifecycle_test runs for its mutant alone: on 7.2 its known
	# oopses take four boots per kernel.
	mutants_killed "mutate (policy depth)" "$T/mu3" --test unix_rules_test \
		--test unix_coarse_test --test audit_test --test inet_test \
		-- 20-rules-peer-label-stack-ignored 30-coarse-peer-fallback-dropped \
		31-audit-quiet-deny-logged 94-inet6-matched-as-inet
	mutants_killed "mutate (lifecycle)" "$T/mu3l" --test unix_lifecycle_test \
		-- 41-life-file-receive-unchecked
	# The hooks reached last (user namespaces, capabilities, io_uring),
	# each mutant killed by its own test: a stack's profiles asked in
	# part (46, 48) and a field left out of the audit records (49); and
	# a stacked peer's later profiles' perms dropped (14, the generated
	# sample's g008, which survived every test before task_peer_test's X).
	mutants_killed "mutate (hooks)" "$T/mu3h" --test userns_test \
		--test capability_test --test uring_test --test task_peer_test \
		-- 46-userns-stack-last-profile-only 48-cap-stack-first-profile-only \
		49-uring-audit-denied-dropped 14-task-stacked-peer-later-perms-dropped
	# SELinux mutants, one per area of the model (sockets, IPC, MLS,
	# modes), each killed by its own test's cases.
	mutants_killed "mutate (SELinux)" "$T/mu4" --lsm selinux -- \
		53-sel-file-receive-socket-unchecked 63-sel-msgrcv-current-sid \
		70-sel-mls-contains-tail-nodes 80-sel-avc-permissive-domain-ignored
	# A mutant that changes nothing survives, one that does not build is
	# stillborn: either fails mutate.
	mkdir -p "$T/mutants"
	sed -n '/^--- /,$p' "$shipped/mutants/10-listen-unchecked.patch" |
		sed 's/^+\tif (0 \&\& !unconfined(label)) {$/+\tif (!unconfined(label)) { \/* same *\//' \
		> "$T/mutants.diff"
	{ echo "a comment only"; echo; cat "$T/mutants.diff"; } > "$T/mutants/01-comment.patch"
	sed 's/^+\tif (!unconfined(label)) { \/\* same \*\//+\tif (!unconfined(label)) { syntax error/' \
		"$T/mutants/01-comment.patch" > "$T/mutants/02-broken.patch"
	# A mutant whose kernel panics in AppArmor's init never reaches its
	# tests (two runs of two boots): stillborn too, not killed.
	cp "$shipped/patches/apparmor-init-panics.patch" "$T/mutants/03-panic.patch"
	skippable timeout -k 5 3000 "$L" mutate --results "$T/mu2" --mutants "$T/mutants" > "$T/mu2.out" 2>&1
	rc=$?
	check "mutate: a survivor or a broken mutant fails it (exit $rc)" [ "$rc" -eq 1 ]
	check "mutate: the comment-only mutant survived" grep -q '^== mutant 01-comment: survived' "$T/mu2.out"
	check "mutate: the broken mutant is stillborn" grep -q '^== mutant 02-broken: stillborn' "$T/mu2.out"
	check "mutate: the panicking mutant is stillborn, run twice" grep -q \
		'^== mutant 03-panic: the guest never reached its tests; running it again' "$T/mu2.out"
	check "mutate: the panicking mutant stillborn in two runs: $(grep -A2 '^== mutant 03-panic: stillborn' "$T/mu2.out" | grep '^   stillborn: ' | sed 's/^ *//')" \
		grep -q '^   stillborn: the guest never reached its tests, in two runs' "$T/mu2.out"
	check "mutate: the score counts the verdicts apart" grep -q \
		'^== mutation score: 0 killed of 1 .*; 1 survived, 0 inconclusive, 2 stillborn, 0 equivalent' "$T/mu2.out"
	# One failure that does not repeat is no kill: a stand-in QEMU fails
	# the first two boots of the comment-only mutant's kernel with an
	# early kernel BUG (its first run never reaches its tests), and its
	# second run passes.
	key=$(skippable "$L" kernel "$orig+$T/mutants/01-comment.patch" | sed -n 's/.* -> build \([^ ]*\) .*/\1/p')
	t0=$(date +%s)
	skippable env LSMCONF_QEMU="$standins/fail-first" LSMCONF_FAIL_IMAGE="*/builds/$key/*" \
		LSMCONF_FAIL_WITH=early-bug \
		LSMCONF_FAIL_BOOTS=2 LSMCONF_FAIL_STATE="$T/fail-first.state" \
		timeout -k 5 3000 "$L" mutate --results "$T/mu5" --mutants "$T/mutants" \
		--mutant 01-comment --test features_test > "$T/mu5.out" 2>&1
	rc=$?
	check "mutate: an inconclusive mutant fails it (exit $rc, $(($(date +%s) - t0)) s)" [ "$rc" -eq 1 ]
	check "mutate: the stand-in failed the mutant's first two boots only" \
		[ "$(wc -l < "$T/fail-first.state")" -eq 2 ]
	check "mutate: a run that never reached its tests is run again" grep -q \
		'^== mutant 01-comment: the guest never reached its tests; running it again' "$T/mu5.out"
	check "mutate: the failure did not repeat: inconclusive" grep -q \
		'^== mutant 01-comment: inconclusive' "$T/mu5.out"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "mutate: mutants.tsv says inconclusive, two runs, and why" awk -F '\t' \
		'NR > 1 && $2 == "inconclusive" && $6 == 2 && $10 == "the guest reached its tests in one run of two" { f = 1 } END { exit !f }' \
		"$T/mu5/latest/mutants.tsv"
	# Host failures kill no mutant (issue 37): QEMU ends the comment-only
	# mutant's first two boots in the middle of a case by its own exit
	# status; each is booted again in the same run, no case crashed, and
	# the mutant survives as it should. Three such boots (here by
	# SIGKILL) fail the mutant's unit as a host failure: no verdict.
	rm -f "$T/mu8.state"
	env LSMCONF_QEMU="$standins/exits-mid-case" LSMCONF_FAIL_IMAGE="*/builds/$key/*" \
		LSMCONF_FAIL_BOOTS=2 LSMCONF_FAIL_STATE="$T/mu8.state" \
		timeout -k 5 3000 "$L" mutate --results "$T/mu8" --mutants "$T/mutants" \
		--mutant 01-comment --test features_test > "$T/mu8.out" 2>&1
	rc=$?
	check "mutate, host failures: the mutant survives, killed by nothing (exit $rc)" \
		sh -c "[ $rc -eq 1 ] && grep -q '^== mutant 01-comment: survived' '$T/mu8.out' && ! grep -q 'running it again' '$T/mu8.out'"
	check "mutate, host failures: both reported as such, no case crashed" sh -c \
		"grep -q '^   boot 1: host failure: QEMU exited with status 1 at console line' '$T/mu8.out' && grep -q '^   boot 2: host failure: QEMU exited with status 1' '$T/mu8.out' && ! grep -q 'brought the kernel down' '$T/mu8.out'"
	rm -f "$T/mu9.state"
	env LSMCONF_QEMU="$standins/killed-mid-case" LSMCONF_FAIL_IMAGE="*/builds/$key/*" \
		LSMCONF_FAIL_BOOTS=3 LSMCONF_FAIL_STATE="$T/mu9.state" \
		timeout -k 5 3000 "$L" mutate --results "$T/mu9" --mutants "$T/mutants" \
		--mutant 01-comment --test features_test > "$T/mu9.out" 2>&1
	rc=$?
	check "mutate, a host failure too many: $(grep -m1 'host failure: build' "$T/mu9.out" | cut -c1-120)" \
		sh -c "[ $rc -ne 0 ] && grep -q 'host failure: build:.*01-comment.patch \[apparmor\]: boot 3: QEMU was killed by signal 9 at console line' '$T/mu9.out' && grep -q 'units not done' '$T/mu9.out'"
	check "mutate, a host failure too many: no verdict on the mutant" sh -c \
		"! grep -q '^== mutant 01-comment: ' '$T/mu9.out' && ! ls '$T'/mu9/latest/mutants.tsv 2> /dev/null | grep -q ."
	# A mutant that brings the kernel down in one case, in both runs, is
	# killed by that crash, named with its kernel report's first line.
	mkdir -p "$T/rose" "$T/mutants-crash"
	cc -static -O2 -I"$S" -I"$shipped/../selftests" -o "$T/rose/rose_socket_test" \
		"$fixtures/rose_socket_test.c"
	cp "$shipped/patches/apparmor-rose-socket-panics.patch" "$T/mutants-crash/01-rose-panics.patch"
	t0=$(date +%s)
	skippable timeout -k 5 3000 "$L" mutate --results "$T/mu6" --mutants "$T/mutants-crash" \
		--tests-dir "$T/rose" --lsm apparmor > "$T/mu6.out" 2>&1
	rc=$?
	check "mutate: a mutant that crashes twice is killed (exit $rc, $(($(date +%s) - t0)) s)" [ "$rc" -eq 0 ]
	check "mutate: a run with a failure and no decision changed is run again" grep -q \
		"^== mutant 01-rose-panics: it failed with every decision as the original's; running it again" "$T/mu6.out"
	check "mutate: killed by the crash of one case in both runs: $(grep '^   killed by a crash' "$T/mu6.out" | sed 's/^ *//')" grep -q \
		'^   killed by a crash in both runs: rose_socket_test/global.af_rose_refused (Kernel panic - not syncing: AppArmor: socket(AF_ROSE) panics on purpose' \
		"$T/mu6.out"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "mutate: mutants.tsv says killed by crash, two runs" awk -F '\t' \
		'NR > 1 && $2 == "killed" && $3 == "crash" && $6 == 2 { f = 1 } END { exit !f }' \
		"$T/mu6/latest/mutants.tsv"
	# A mutant that changes only the cost (issue 25): the peer's address
	# read twice per check. The matrix of datagram peers decides as the
	# original does, and mutate --cost kills it by cost alone: two more
	# reads per message on the unconfined socketpair point (sender and
	# receiver checks), beyond the original's drift and interval. Its
	# boots repeat exactly (fixed guest clock), so the verdict is stable.
	t0=$(date +%s)
	skippable timeout -k 5 3000 "$L" mutate --results "$T/mu7" --lsm apparmor \
		--test unix_peer_test --cost socketpair:none \
		--mutant 96-cost-peer-address-read-twice > "$T/mu7.out" 2>&1
	rc=$?
	check "mutate --cost: the cost-only mutant is killed (exit $rc, $(($(date +%s) - t0)) s)" [ "$rc" -eq 0 ]
	check "mutate --cost: killed by cost on socketpair:none: $(grep '^   killed by cost' "$T/mu7.out" | sed 's/^ *//')" \
		grep -q '^   killed by cost: socketpair:none +' "$T/mu7.out"
	# The probe names the function read twice: 2 calls per message (the
	# sender's and the receiver's check), 4 with the mutant.
	check "mutate --cost: the functions behind it name aa_sunaddr 2 -> 4 calls" \
		grep -q 'functions behind it: socketpair:none: .*aa_sunaddr 2.00 -> 4.00 calls/msg' "$T/mu7.out"
	# And the instruction profile of the cost boots: the read's own
	# instructions double (two more calls of the same function).
	v=$(sed -n 's/.*instructions: .*aa_sunaddr \([0-9]*\)\.00 -> \([0-9]*\)\.00 instructions\/msg.*/\1 \2/p' "$T/mu7.out")
	if [ -n "${noprofile:-}" ]; then
		skip "mutate --cost: aa_sunaddr's instructions per message double" \
			"QEMU ran the bench without the instruction plugin: $noprofile"
	else
		# shellcheck disable=SC2086 # two numbers, split on purpose
		check "mutate --cost: aa_sunaddr's instructions per message double (${v:-none})" \
			doubled $v
	fi
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "mutate --cost: mutants.tsv says killed by cost only, no decision, no failure" \
		awk -F '\t' 'NR > 1 && $2 == "killed" && $3 == "cost" && $4 == 0 && $5 == 0 && $12 ~ /^socketpair:none / { f = 1 } END { exit !f }' \
		"$T/mu7/latest/mutants.tsv"
	printf 'garbage\n--- a/nonexistent\n+++ b/nonexistent\n@@ -1 +1 @@\n-x\n+y\n' > "$T/bad.patch"
	expect_fail "patch that does not apply" "applying .*bad.patch failed" \
		"$L" kernel "$orig+$T/bad.patch"
	# A patch series before it is merged (issue 26): six patches to 7.2's
	# AppArmor, 3 changes decisions of the datagram matrix (sends to a
	# pathname socket skip the file rules), 5 adds a read of the peer's
	# address per message (mutant 96's), the others are comments and a
	# rename. The bisection names both, in
	# at most ceil(log2 6) + 2 = 5 builds beyond base and tip.
	t0=$(date +%s)
	skippable timeout -k 5 3000 "$L" series --results "$T/se" --lsm apparmor \
		--test unix_peer_test "${orig#build:}" "$shipped/series/decision-and-cost" \
		> "$T/se.out" 2>&1
	rc=$?
	check "series: a decision and a cost changed: exit $rc ($(($(date +%s) - t0)) s)" [ "$rc" -eq 1 ]
	check "series: decisions changed by patch 3: $(grep '^  decisions changed: ' "$T/se.out" | sed 's/^ *//')" \
		grep -q '^  decisions changed: patch 3/6 ' "$T/se.out"
	check "series: cost per message changed by patch 5: $(grep '^  cost per message: ' "$T/se.out" | sed 's/^ *//')" \
		grep -q '^  cost per message: patch 5/6 ' "$T/se.out"
	check "series: the functions behind the cost name aa_sunaddr" \
		sh -c "sed -n '/^  cost per message: /,/^  [a-z]/p' '$T/se/latest/report.txt' | grep -q 'aa_sunaddr'"
	check "series: no other culprit" [ "$(grep -c '^  [a-z].*: patch [0-9]' "$T/se/latest/report.txt")" -eq 2 ]
	builds=$(sed -n 's/^== bisection: \([0-9]*\) builds beyond base and tip.*/\1/p' "$T/se.out")
	check "series: ${builds:-?} builds beyond base and tip (at most 5)" [ "${builds:-9}" -le 5 ]
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "series: every line of report.txt fits 72 columns" \
		awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$T/se/latest/report.txt"
	check "series: report.html written" [ -s "$T/se/latest/report.html" ]
	check "series: series.tsv has a header and a row a patch" \
		[ "$(wc -l < "$T/se/latest/series.tsv")" -eq 7 ]
	# A series whose third patch does not apply: named, and never booted
	# (no cost boots: --cost "").
	skippable timeout -k 5 3000 "$L" series --results "$T/sn" --lsm apparmor --cost "" \
		--test unix_peer_test "${orig#build:}" "$shipped/series/third-does-not-apply" \
		> "$T/sn.out" 2>&1
	rc=$?
	check "series: a patch that does not apply fails it (exit $rc)" [ "$rc" -eq 1 ]
	check "series: patch 3 does not apply: $(grep '^ 3 NO ' "$T/sn/latest/report.txt" | sed 's/  */ /g')" \
		grep -q '^ 3 NO  -' "$T/sn/latest/report.txt"
	check "series: the kernel with patch 3 is never booted" \
		sh -c "! ls -d '$T'/sn/latest/kernel-3* 2> /dev/null | grep -q ."
	# The series as units (issue 27). Merging the serial run's store again
	# gives its report; a copy of the store with every unit but the base's
	# removed is driven by plan --ready through GNU parallel, one round a
	# wave, to the same report.
	sn1=$(readlink -f "$T/sn/latest")
	skippable "$L" merge --store "$sn1/store" > "$T/snm.out" 2>&1
	rc=$?
	sn2=$(readlink -f "$T/sn/latest")
	check "series units: merge of the serial store: exit $rc, the same report.txt and series.tsv" \
		sh -c "[ $rc -eq 1 ] && [ '$sn1' != '$sn2' ] && cmp -s '$sn1/report.txt' '$sn2/report.txt' && cmp -s '$sn1/series.tsv' '$sn2/series.tsv'"
	rm -rf "$T/snw"
	skippable cp -a "$sn1/store" "$T/snw"
	grep -e ' -- build the base ' -e ' -- boot base$' "$T/snw/plan.tsv" | cut -d' ' -f1 > "$T/snw.keep"
	for d in "$T"/snw/units/*; do
		grep -qx "${d##*/}" "$T/snw.keep" || rm -rf "$d"
	done
	waves=0
	while ids=$(skippable "$L" plan --store "$T/snw" --ready 2>> "$T/snw.out") &&
		[ -n "$ids" ] && [ "$waves" -lt 20 ]; do
		waves=$((waves + 1))
		# shellcheck disable=SC2086 # one id a word
		printf '%s\n' $ids | timeout -k 5 900 parallel "$L" unit --store "$T/snw" '{}' >> "$T/snw.out" 2>&1
	done
	skippable "$L" merge --store "$T/snw" > "$T/snwm.out" 2>&1
	rc=$?
	sn3=$(readlink -f "$T/sn/latest")
	check "series units: $waves rounds of plan --ready through GNU parallel from the base's units, merged: exit $rc, the serial report.txt" \
		sh -c "[ $rc -eq 1 ] && [ $waves -ge 2 ] && [ '$sn3' != '$sn2' ] && cmp -s '$sn1/report.txt' '$sn3/report.txt'"
	check "series units: the tip and kernel 2 ran again, the base did not" \
		sh -c "grep -q 'build kernel 3 ' '$T/snw.out' && grep -q 'boot kernel-2)' '$T/snw.out' && ! grep -q 'boot base)' '$T/snw.out'"
	# Verdicts of a series (issue 37). Three comment-only patches on the
	# source-built 7.2, whose base has listed known bugs (a wrong
	# decision in audit_ops_test and exec_test each, an oops in
	# unix_lifecycle_test): the list names the base, not the patched
	# kernels, but their outcomes are the base's, so no patch is blamed.
	t0=$(date +%s)
	skippable timeout -k 5 3000 "$L" series --results "$T/sc" --lsm apparmor --cost "" \
		--test audit_ops_test --test exec_test --test unix_lifecycle_test \
		"${orig#build:}" "$shipped/series/comments-only" > "$T/sc.out" 2>&1
	rc=$?
	check "series of comments on a base with known bugs: no culprit, exit $rc ($(($(date +%s) - t0)) s)" \
		sh -c "[ $rc -eq 0 ] && grep -q '^Culprits: none' '$T/sc/latest/report.txt'"
	check "series of comments: the tip's decisions and failures are the base's" \
		grep -q '^ 3 yes yes same ' "$T/sc/latest/report.txt"
	check "series of comments: the tip's oops is the base's known bug, by its signature" \
		grep -q 'apparmor-unix-file-perm-null-peer' "$T/sc/latest/kernel-3-apparmor/known-crashes.tsv"
	# A step that loses its decisions once: kernel 3 of decision-and-cost
	# (patch 3 changes decisions) boots first with apparmor_parser hidden
	# (a stand-in QEMU), so its tests record nothing. That run decides
	# nothing alone: the kernel is booted again, the change repeats, and
	# patch 3 is named as without the loss.
	skippable "$L" kernel "$orig$(for p in "$shipped"/series/decision-and-cost/000[123]-*.patch; do printf '+%s' "$p"; done)" \
		> "$T/k3.out" 2>&1
	k3=$(sed -n 's/.* -> build \([0-9a-f]*\) .*/\1/p' "$T/k3.out")
	rm -f "$T/hide.state"
	skippable env LSMCONF_QEMU="$standins/hide-first" LSMCONF_HIDE_IMAGE="*/builds/${k3:-none}/*" \
		LSMCONF_HIDE_STATE="$T/hide.state" timeout -k 5 3000 "$L" series \
		--results "$T/sh" --lsm apparmor --cost "" --test unix_peer_test \
		"${orig#build:}" "$shipped/series/decision-and-cost" > "$T/sh.out" 2>&1
	rc=$?
	check "series, a step that lost its decisions once: booted again ($(wc -l < "$T/hide.state" 2> /dev/null) hidden)" \
		sh -c "[ -s '$T/hide.state' ] && grep -q '^== kernel 3 again: its first run decides nothing alone' '$T/sh.out'"
	check "series, a step that lost its decisions once: patch 3 named all the same (exit $rc)" \
		sh -c "[ $rc -eq 1 ] && grep -q '^  decisions changed: patch 3/6 ' '$T/sh.out'"
	# A patched build starts from the nearest complete build (issue 26).
	# Patch 1 of the series is built (above, or from the cache); a second
	# patch unique to this run, a comment in lib.c, makes a kernel never
	# built before. It must start from patch 1's build and compile lib.c
	# but not af_unix.c, which patch 1 changed.
	p1=$(ls "$shipped"/series/decision-and-cost/0001-*.patch)
	printf -- '--- a/security/apparmor/lib.c\n+++ b/security/apparmor/lib.c\n@@ -1,3 +1,4 @@\n+// e2e %s\n // SPDX-License-Identifier: GPL-2.0-only\n /*\n  * AppArmor security module\n' \
		"$$-$(date +%s)" > "$T/nonce.patch"
	skippable "$L" kernel "$orig+$p1" > "$T/nb1.out" 2>&1
	skippable "$L" kernel "$orig+$p1+$T/nonce.patch" > "$T/nb.out" 2>&1
	k1=$(sed -n 's/.* -> build \([0-9a-f]*\) .*/\1/p' "$T/nb1.out")
	k2=$(sed -n 's/.* -> build \([0-9a-f]*\) .*/\1/p' "$T/nb.out")
	check "neighbour build: started from patch 1's build: $(cat "$cache/builds/${k2:-none}/started-from" 2> /dev/null)" \
		grep -q "^started from .*/${k1:-none}: 0 reverted, 1 applied" "$cache/builds/${k2:-none}/started-from"
	check "neighbour build: lib.c compiled" \
		grep -q '^  CC  *security/apparmor/lib\.o' "$cache/builds/${k2:-none}/build.log"
	check "neighbour build: af_unix.c, changed by patch 1 only, not compiled again" \
		sh -c "! grep -q ' security/apparmor/af_unix\.o' '$cache/builds/${k2:-none}/build.log'"
	[ -n "$k2" ] && rm -rf "${cache:?}/builds/$k2" "$cache/builds/$k2.lock"
}
# Coverage and generated mutants (issue 39). Coverage: one
# unix_peer_test case on the coverage build of 7.2. A confined sender's datagram goes through the unix_may_send hook;
# nothing in it mounts, and the counters were zeroed after the guest's
# own mounts: sb_mount's count is 0.
coverage_boot() {
	cv_case=unix_peer.abi_5_0__dgram__abstract__send_deny__unconfined.decisions
	skippable timeout -k 5 3000 "$L" coverage --results "$T/cv" --lsm apparmor \
		--test unix_peer_test --args "-r $cv_case" build:debian-source:7.2 \
		> "$T/cv.out" 2>&1
	rc=$?
	check "coverage of one case: exit 0" [ "$rc" -eq 0 ]
	for cvd in "$T"/cv/latest/*-coverage; do break; done
	check "coverage: boot 1's counters captured (boot-1.info)" \
		test -s "${cvd:-none}/boot-1.info"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "coverage: hooks.tsv counts apparmor_unix_may_send's calls: $(grep -h 'unix_may_send' "${cvd:-none}/hooks.tsv" 2> /dev/null | tr '\t' ' ')" \
		awk -F '\t' '$1 == "apparmor" && $2 == "unix_may_send" &&
		$3 == "apparmor_unix_may_send" && $4 > 0 { f = 1 } END { exit !f }' \
		"${cvd:-none}/hooks.tsv"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "coverage: counted from the first test on: sb_mount 0 calls" \
		awk -F '\t' '$2 == "sb_mount" && $4 == "0" { f = 1 } END { exit !f }' \
		"${cvd:-none}/hooks.tsv"
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "coverage: coverage.tsv has lines of security/apparmor/af_unix.c hit" \
		awk -F '\t' '$1 == "security/apparmor/af_unix.c" && $3 > 0 &&
		$3 <= $2 { f = 1 } END { exit !f }' "${cvd:-none}/coverage.tsv"
	check "coverage: the summary names af_unix.c with its lines" \
		grep -q '^   security/apparmor/af_unix.c  *[0-9]*/[0-9]* ' "$T/cv.out"
	check "coverage: genhtml's report" test -s "${cvd:-none}/html/index.html"
	# Coverage boots are units: a build, then a boot per LSM.
	skippable "$L" plan --store "$T/cvs" coverage build:debian-source:7.2 \
		> "$T/cvs.out" 2>&1
	check "coverage as units: the coverage build and one boot per LSM" \
		sh -c "grep -q ' -- build build:debian-source:7.2,coverage\$' '$T/cvs.out' &&
		[ \$(grep -c ' -- boot build:debian-source:7.2,coverage \(apparmor\|selinux\)\$' '$T/cvs.out') -eq 2 ]"
	# The ops table (fixtures/hook-ops.tsv): the case's denied sends went
	# through unix_may_send, its sockets were made allowed, and every
	# hook credited with a record was called.
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "coverage: hooks.tsv has a deny through unix_may_send and an allow through socket_create" \
		awk -F '\t' '$2 == "unix_may_send" && $6 > 0 { d = 1 }
		$2 == "socket_create" && $5 > 0 { a = 1 } END { exit !(a && d) }' \
		"${cvd:-none}/hooks.tsv"
	check "coverage: the summary counts allows and denies through hooks" \
		grep -q '^   apparmor: .* an allow recorded through [1-9][0-9]*, a deny through [1-9][0-9]* ' "$T/cv.out"
	check "coverage: no record credited to a hook never called" \
		sh -c "! grep -q 'never saw called' '$T/cv.out'"
	# The status of each hook (fixtures/hook-reasons.tsv): a hook that
	# decides nothing is listed with its reason; the rest of one case's
	# hooks are gaps, named in the summary.
	# shellcheck disable=SC2016 # awk fields, not shell variables
	check "coverage: hooks.tsv says cred_free decides nothing, and why" \
		awk -F '\t' '$1 == "apparmor" && $2 == "cred_free" &&
		$7 == "no decision" && length($8) > 8 { f = 1 } END { exit !f }' \
		"${cvd:-none}/hooks.tsv"
	check "coverage: the summary names the gaps (sb_mount never called)" \
		grep -q '^   apparmor: [0-9]* hooks with both outcomes, .*gaps: .*sb_mount (gap: never called)' "$T/cv.out"
	# Generated mutants: a fixed seed draws the same patches every time
	# (plan draws them, then mutate again after they are removed), each
	# named by its operator, file and line, and each gets its verdict.
	skippable "$L" plan --store "$T/gs" mutate --generate 2 --seed 39 \
		--lsm apparmor > "$T/gs.out" 2>&1
	gdir=$(sed -n 's/^lsmconf: mutate --generate 2 --seed 39: .* into //p' "$T/gs.out")
	sums1=$(cat "${gdir:-/none}"/*.patch 2> /dev/null | sha256sum)
	# Drawn again from scratch, not found in place.
	[ -n "$gdir" ] && rm -rf "$gdir"
	skippable timeout -k 5 3000 "$L" mutate --results "$T/mg" --generate 2 \
		--seed 39 --lsm apparmor --test unix_peer_test \
		--coverage "${cvd:-/none}/coverage.info" > "$T/mg.out" 2>&1
	rc=$?
	sums2=$(cat "${gdir:-/none}"/*.patch 2> /dev/null | sha256sum)
	check "generated mutants: seed 39 drew the same 2 patches twice" \
		sh -c "[ '$sums1' = '$sums2' ] && [ \$(ls '${gdir:-/none}' | wc -l) -eq 2 ]"
	check "generated mutants: each says its operator, file and line" sh -c \
		"[ \$(grep -l '^generated: [a-z0-9-]* at security/apparmor/[a-z_]*\.c:[0-9]*: ' '${gdir:-/none}'/*.patch | wc -l) -eq 2 ]"
	check "generated mutants: each has its verdict (exit $rc): $(grep -c '^== mutant g00[12]-' "$T/mg.out")" \
		sh -c "[ \$(grep -Ec '^== mutant g00[12]-[a-z0-9_-]*: (killed|survived|stillborn|inconclusive)' '$T/mg.out') -eq 2 ]"
	# Each survivor classed by the coverage run above (the same case):
	# its line (or its statement, or its function) never ran (a reach
	# gap) or ran with no decision changed.
	surv=$(grep -c '^   SURVIVED: ' "$T/mg.out")
	check "generated mutants: each of the $surv survivors classed by the original's coverage" \
		sh -c "[ \$(grep -Ec '^   (a reach gap: (the suites never execute its (line|statement)|its function [a-z0-9_]+\\(\\) is never called)|an oracle gap: .* and no decision changed|not classed: (gcov counts no code on its line|its file has no counters)).*\$' '$T/mg.out') -eq $surv ]"
	# --skip-unexecuted: a mutant whose line the coverage run never
	# executed (or whose file it never built) gets no build and no boot;
	# one whose line ran is planned as before.
	skippable "$L" plan --store "$T/gs4" mutate --generate 2 --seed 39 \
		--lsm apparmor --test unix_peer_test --skip-unexecuted \
		--coverage "${cvd:-/none}/coverage.info" > "$T/gs4.out" 2>&1
	unrun=""
	plan_ok=yes
	sed -n 's/^== mutant \(g00[12]-[a-z0-9_-]*\): .*/\1/p' "$T/mg.out" > "$T/mg.names"
	while read -r m; do
		if grep -A3 "^== mutant $m: " "$T/mg.out" |
			grep -Eq '^   (a reach gap|not classed: its file has no counters)'; then
			unrun="$m"
			! grep -q " -- build mutant $m\$" "$T/gs4.out" || plan_ok=no
		else
			grep -q " -- build mutant $m\$" "$T/gs4.out" || plan_ok=no
		fi
	done < "$T/mg.names"
	check "generated mutants: --skip-unexecuted plans only those whose line ran${unrun:+ ($unrun not)}" \
		sh -c "[ $plan_ok = yes ] && grep -q ' -- boot build:debian-source:7.2 apparmor (original)\$' '$T/gs4.out'"
	if [ -n "$unrun" ]; then
		skippable timeout -k 5 3000 "$L" mutate --results "$T/mk" --generate 2 \
			--seed 39 --lsm apparmor --test unix_peer_test --mutant "$unrun" \
			--skip-unexecuted --coverage "${cvd:-/none}/coverage.info" \
			> "$T/mk.out" 2>&1
		# shellcheck disable=SC2016 # awk fields, not shell variables
		check "generated mutants: --skip-unexecuted: $unrun survives unrun, 0 runs" sh -c \
			"grep -q '^   SURVIVED: not run (--skip-unexecuted): no case executes its line\$' '$T/mk.out' &&
			awk -F '\t' '\$1 == \"$unrun\" && \$2 == \"survived\" && \$6 == 0 { f = 1 } END { exit !f }' '$T/mk/latest/mutants.tsv'"
	fi
	expect_fail "mutate --skip-unexecuted without --coverage is refused" \
		'needs --coverage FILE' "$L" mutate --skip-unexecuted
	expect_fail "mutate --coverage of a file that is no tracefile is refused" \
		'outside SF...end_of_record' "$L" mutate --coverage "$T/mg.out"
	expect_fail "plan mutate --generate without --seed is refused (each unit would draw again)" \
		'needs --seed S' "$L" plan --store "$T/gs2" mutate --generate 2
	# --evidence: each generated mutant's claim planned as a written
	# claim's, a cost boot each beside the original's A and A2.
	skippable "$L" plan --store "$T/gs3" mutate --generate 2 --seed 39 \
		--lsm apparmor --evidence > "$T/gs3.out" 2>&1
	check "generated mutants: --evidence plans the original's A and A2 and a cost boot per mutant" \
		sh -c "grep -q ' -- bench original-cost-A2\$' '$T/gs3.out' && [ \$(grep -c ' -- bench mutant-g00[12]-.*-cost\$' '$T/gs3.out') -eq 2 ]"
	expect_fail "mutate --evidence without --generate is refused" \
		'go with --generate N' "$L" mutate --evidence
	# No seed given: chosen once and handed to every unit, which then
	# all draw the same mutant (each unit plans the command again).
	skippable timeout -k 5 3000 "$L" mutate --results "$T/mr" --generate 1 \
		--lsm apparmor --files security/apparmor/af_unix.c \
		--test unix_peer_test --args "-r $cv_case" > "$T/mr.out" 2>&1
	rc=$?
	check "generated mutants: without --seed, one seed for every unit, a verdict (exit $rc)" \
		sh -c "[ \$(sed -n 's/^lsmconf: mutate --generate 1 --seed \([0-9]*\):.*/\1/p' '$T/mr.out' | sort -u | wc -l) -eq 1 ] &&
		grep -Eq '^== mutant g001-[a-z0-9_-]*: (killed|survived|stillborn|inconclusive)' '$T/mr.out'"
}
if [ -n "${LSMCONF_SKIP_BUILD:-}" ]; then
	skip_block "LSMCONF_SKIP_BUILD is set: no kernel built from source"
fi
built_from_source
coverage_boot
end_skip_block

tap_end
