#!/bin/sh
# lsmconf mutate's "Equivalent:" claims judged at the merge, without a
# boot: the results of a mutate plan's units are written by hand into a
# store, as the units would leave them (runner/tests/series_plan_test.sh
# does the same for series). The mutants are
# runner/tests/fixtures/mutants-equivalent: 01 claims equivalence and its
# records equal the original's, 02 claims it and changes a decision. A
# stand-in QEMU that loads plugins makes the plan profile its cost boots.
# Checked: the claim holds when the mutant's instruction profile equals
# the original's (within A -> A2); it is refused, and the mutant
# survives, when one function's instructions differ or when no profile
# was measured; a killed mutant's claim is refused; a cost boot whose
# profile file is missing is a store copied in part.
#   mutate_store_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
t=$(mktemp -d /tmp/lsmconf-mutate-store.XXXXXX)
trap 'rm -rf "$t"' EXIT
LSMCONF_CACHE=$t/cache
# No KVM: the cost boots are counted (icount), and profiled.
LSMCONF_NO_KVM=1
LSMCONF_QEMU=$t/qemu
export LSMCONF_CACHE LSMCONF_NO_KVM LSMCONF_QEMU
cat > "$t/qemu" <<'EOF'
#!/bin/sh
[ "$1" = -help ] && { printf '%s\n' '-icount ...' '-plugin [file=]<file>'; exit 0; }
exec tail -f /dev/null
EOF
chmod +x "$t/qemu"
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin mutate_store_test.sh "mutate store: "

S=$t/store
cd "$root"
"$lsmconf" plan --store "$S" mutate --results "$t/results" --lsm apparmor \
	--mutants runner/tests/fixtures/mutants-equivalent > "$t/plan" 2> "$t/err"
id_of() { grep " -- $1\$" "$S/plan.tsv" | cut -d' ' -f1; }
check "no --cost: the claims plan the original's A and A2 and a cost boot per claim" \
	eval 'grep -q " -- bench original-cost-A$" "$t/plan" && grep -q " -- bench original-cost-A2$" "$t/plan" && [ "$(grep -c " -- bench mutant-.*-cost$" "$t/plan")" -eq 2 ]'

# put ID FILE TEXT: FILE of unit ID holds TEXT (directories made).
put() {
	mkdir -p "$(dirname "$S/units/$1/$2")"
	printf '%s' "$3" > "$S/units/$1/$2"
}
done_unit() { put "$1" "done" 'seconds 1.0
host test
attempt none
'; }
built() {
	done_unit "$1"
	put "$1" kernel.tsv 'status ok
spec build:x
'
}
rec() { printf '%s\t5.0\tlsmconf_t\tpeer\t-\t-\t%s\t-\t%s\t%s\n' "$@"; }
# boot ID DIR OBSERVED: a suite's boot with two decisions, the listen
# one observed as OBSERVED (expected EINVAL).
boot() {
	put "$1" "$2/guest/uname" '7.2.13-lsmconf
'
	put "$1" "$2/kernel.txt" "$(printf 'spec\tbuild:x\ndecisions\t2\nverdict\tPASS\n')"
	put "$1" "$2/ktap.txt" 'TAP version 13
1..1
# selftests: apparmor: unix_peer_test
ok 1 selftests: apparmor: unix_peer_test
'
	put "$1" "$2/records.tsv" "$(printf 'id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\tobserved\n'
		rec unix_peer_test/peer/send send allow allow
		rec unix_peer_test/peer/listen listen EINVAL "$3")
"
}
# cost ID DIR USER PEER: a cost boot whose profile has USER and PEER
# instructions per message ([user], aa_unix_peer_perm) at each point.
cost() {
	done_unit "$1"
	put "$1" verdict 'PASS
'
	put "$1" "$2/kernel.txt" "$(printf 'spec\tbuild:x\ndecisions\t0\nqemu\tqemu -icount shift=0 -plugin x.so,out=/t/insns.tsv\nverdict\tPASS\n')"
	put "$1" "$2/ktap.txt" 'TAP version 13
1..1
ok 1 selftests: apparmor: unix_send_bench
'
	put "$1" "$2/guest/samples.tsv" "$(for p in socketpair:none twoproc:both twoproc:stacked; do
		for r in 0 1 2; do printf '%s\t0\t%s\t0\t8192\t%s\n' "$p" "$r" $((2000000 + r)); done
	done)
"
	put "$1" "$2/guest/ksyms.txt" 'ffffffff81000000 aa_unix_peer_perm
ffffffff81001000 aa_sunaddr
'
	# 24576 measured messages a point: one execution each.
	put "$1" "$2/insns.tsv" "$(for i in 0 1 2; do
		printf '%s\t400000\t%s\t24576\n' "$i" "$3"
		printf '%s\tffffffff81000010\t%s\t24576\n' "$i" "$4"
	done)
"
}

built "$(id_of "build build:debian-source:7.2")"
o=$(id_of "boot build:debian-source:7.2 apparmor (original)")
done_unit "$o"
put "$o" verdict 'PASS
'
boot "$o" original-apparmor EINVAL
cost "$(id_of "bench original-cost-A")" original-cost-A-apparmor 120 86
cost "$(id_of "bench original-cost-A2")" original-cost-A2-apparmor 121 86
m1=$(id_of "boot mutant 01-comment-claimed (apparmor)")
built "$(id_of "build mutant 01-comment-claimed")"
done_unit "$m1"
put "$m1" runs 'mutant-01-comment-claimed PASS
'
boot "$m1" mutant-01-comment-claimed-apparmor EINVAL
c1=$(id_of "bench mutant-01-comment-claimed-cost")
cost "$c1" mutant-01-comment-claimed-cost-apparmor 121 86

# Mutant 02's units not done yet: merge names them; --partial judges 01
# and counts 02 pending, its score marked partial, exit 2.
rc=0
"$lsmconf" merge --store "$S" > "$t/early" 2>&1 || rc=$?
check "mutant 02's units not done: merge refuses, exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "units are not done:.*(build mutant 02-listen-unchecked-claimed)" "$t/early"'
rc=0
"$lsmconf" merge --store "$S" --partial > "$t/partial" 2>&1 || rc=$?
check "merge --partial: 01 judged, 02 pending, the score partial, exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "^== mutant 01-comment-claimed: equivalent$" "$t/partial" && grep -q "^== mutant 02-listen-unchecked-claimed: pending$" "$t/partial" && grep -q "^== PARTIAL: 1 of 2 mutants judged, 1 pending " "$t/partial" && grep -q "^02-listen-unchecked-claimed	pending	" "$t/results/latest/mutants.tsv"'
check "merge --partial: the score is of those judged" \
	eval 'grep -q "^== mutation score: 0 killed of 0 mutants .*; 0 survived, 0 inconclusive, 0 stillborn, 1 equivalent " "$t/partial"'

m2=$(id_of "boot mutant 02-listen-unchecked-claimed (apparmor)")
built "$(id_of "build mutant 02-listen-unchecked-claimed")"
done_unit "$m2"
put "$m2" runs 'mutant-02-listen-unchecked-claimed FAIL
'
boot "$m2" mutant-02-listen-unchecked-claimed-apparmor allow
cost "$(id_of "bench mutant-02-listen-unchecked-claimed-cost")" \
	mutant-02-listen-unchecked-claimed-cost-apparmor 120 86

merge() {
	rc=0
	"$lsmconf" merge --store "$S" > "$t/merge" 2>&1 || rc=$?
}
merge
# shellcheck disable=SC2034 # read by check()
tsv=$t/results/latest/mutants.tsv
check "records and profile the original's: equivalent, exit 0 ($rc)" \
	eval '[ $rc -eq 0 ] && grep -q "^== mutant 01-comment-claimed: equivalent$" "$t/merge" && grep -q "^   equivalent: only a comment changes; the compiled code is the same (checked: " "$t/merge" && grep -q "^01-comment-claimed	equivalent	" "$tsv"'
check "a killed mutant's claim is refused" \
	eval 'grep -q "^== mutant 02-listen-unchecked-claimed: killed$" "$t/merge" && grep -q "^   equivalence claim refused: it is killed by decision$" "$t/merge" && grep -q "^02-listen-unchecked-claimed	killed	.*equivalence claim refused: it is killed by decision" "$tsv"'
check "the score counts the equivalent one out and the refused claim" \
	eval 'grep -q "^== mutation score: 1 killed of 1 mutants .*; 0 survived, 0 inconclusive, 0 stillborn, 1 equivalent (1 equivalence claims refused)$" "$t/merge"'

# One instruction more a message in aa_unix_peer_perm, where A = A2.
put "$c1" mutant-01-comment-claimed-cost-apparmor/insns.tsv "$(for i in 0 1 2; do
	printf '%s\t400000\t121\t24576\n' "$i"
	printf '%s\tffffffff81000010\t%s\t24576\n' "$i" $((86 + i / 2))
done)
"
merge
check "a profile difference: the claim refused, the mutant survives, exit 1 ($rc)" \
	eval '[ $rc -eq 1 ] && grep -q "^== mutant 01-comment-claimed: survived$" "$t/merge" && grep -q "^   equivalence claim refused: instructions per message differ at twoproc:stacked: aa_unix_peer_perm 86.00 -> 87.00 (+1/msg, A2 86.00)$" "$t/merge" && grep -q "^01-comment-claimed	survived	.*	equivalence claim refused: instructions per message differ" "$tsv"'

# Its cost boot's profile file gone where QEMU ran the plugin: the store
# is a partial copy, refused before anything is judged.
rm "$S/units/$c1/mutant-01-comment-claimed-cost-apparmor/insns.tsv"
merge
check "a cost boot without its profile file: the store refused, exit 2 ($rc)" \
	eval '[ $rc -eq 2 ] && grep -q "lacks mutant-01-comment-claimed-cost-apparmor/insns.tsv" "$t/merge"'

# A cost boot that ran without the plugin: nothing measured its profile.
put "$c1" mutant-01-comment-claimed-cost-apparmor/kernel.txt "$(printf 'spec\tbuild:x\ndecisions\t0\nqemu\tqemu -icount shift=0\nverdict\tPASS\n')"
merge
check "no profile measured: the claim refused, exit 1 ($rc)" \
	eval '[ $rc -eq 1 ] && grep -q "^   equivalence claim refused: no instruction profile at socketpair:none in the mutant.s cost boot" "$t/merge"'

if [ "$tap_fail" -ne 0 ]; then
	sed 's/^/# /' "$t/err" "$t/merge"
fi
tap_end
