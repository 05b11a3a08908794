#!/bin/sh
# Sourced by the end-to-end scripts (e2e.sh, e2e_built.sh), which make
# e2e runs side by side: the caller's LSMCONF_* cleared, a temporary
# directory $T, tap.sh begun for $e2e_script, the helpers every section
# uses, and where the fixtures, stand-in QEMUs and the cache are.
#   e2e_script=NAME; . runner/tests/e2e_common.sh   (with $1 lsmconf)
# shellcheck disable=SC2034 # the sourcing scripts use what is set here
L=$1
# The checks set every LSMCONF_* variable they depend on themselves: a
# caller's LSMCONF_NO_KVM, LSMCONF_QEMU, ... must not change a verdict (the
# KVM checks below would test nothing). LSMCONF_CACHE stays: where the
# cache lives changes no verdict; so does LSMCONF_CHECK_COUNTS, where make
# check sums what ran. LSMCONF_SKIP_BUILD is the developers' switch for
# e2e_built.sh: its checks print skip lines instead of running.
for v in $(env | sed -n 's/^\(LSMCONF_[A-Z_]*\)=.*/\1/p'); do
	case $v in
	LSMCONF_CACHE | LSMCONF_SKIP_BUILD | LSMCONF_CHECK_COUNTS) ;;
	*) unset "$v" ;;
	esac
done
# The installed selftests, a directory per LSM (lsmconf's default).
tests=$(cd "$(dirname "$L")/kselftest" && pwd)
T=$(mktemp -d /tmp/lsmconf-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
# ok NAME, no NAME, skip NAME REASON, check NAME CMD...; a comment after
# a check that ended a stretch of 30 s or more: where make check spends
# its time.
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck disable=SC2154 # set by the sourcing script
tap_begin "$e2e_script"

# expect_fail NAME PATTERN CMD...: CMD must exit non-zero within 300 s and
# say PATTERN in one line of its stderr.
expect_fail() {
	name=$1
	pattern=$2
	shift 2
	skippable timeout -k 5 300 "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q -- "$pattern" "$T/err" "$T/out"; then
		ok "$name (exit $rc: $(grep -h -m1 -- "$pattern" "$T/err" "$T/out"))"
	else
		no "$name (exit $rc, wanted a message matching '$pattern')"
		sed 's/^/#   /' "$T/err" "$T/out" | tail -5
	fi
}

# explain OUTPUT RESULTS: what went wrong, then a failed run's whole
# output and per boot its crash notes and last console lines, so a CI
# log says why.
explain() {
	# First what went wrong (a CI log cut after a few lines still shows
	# it): the report's lines but a test binary's "ok" and the
	# descriptive ones, and each kernel's failed cases.
	grep -Ev '^ +[a-z0-9_]+ +ok: |^ +(guest|features|time|results):' "$1" |
		head -25 | sed 's/^/#   /'
	for d in "$2"/latest/*/; do
		[ -d "$d" ] || continue
		b=$(basename "$d")
		grep -h 'not ok' "$d/ktap.txt" 2> /dev/null | head -20 | sed "s|^|#   $b: |"
	done
	echo "#   the whole report:"
	sed 's/^/#   /' "$1"
	for d in "$2"/latest/*/; do
		[ -d "$d" ] || continue
		b=$(basename "$d")
		for c in "$d"/crash-*.txt; do
			[ -f "$c" ] && head -30 "$c" | sed "s|^|#   $b: |"
		done
		tail -5 "$d/console.log" 2> /dev/null | sed "s|^|#   $b console: |"
	done
}

# field FILE KEY: the value of KEY in a results kernel.txt
field() { awk -F '\t' -v k="$2" '$1 == k { print $2 }' "$1"; }
# doubled A B: B is twice A (both given)
doubled() { [ $# -eq 2 ] && [ "$1" -gt 0 ] && [ "$2" -eq $(($1 * 2)) ]; }

# Guest test fixtures, the kselftest headers they build against (the
# tree make all built the selftests with), the shipped patches and
# lists, stand-in QEMUs (LSMCONF_QEMU), and lsmconf's cache, as it finds
# it.
S=$("$L" ksrc)/tools/testing/selftests
fixtures=$(cd "$(dirname "$0")/fixtures/guest-tests" && pwd)
shipped=$(cd "$(dirname "$0")/../../fixtures" && pwd)
standins=$(cd "$(dirname "$0")/fixtures/qemu" && pwd)
cache=${LSMCONF_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/lsmconf}}
cache=${cache:-${HOME:+$HOME/.cache/lsmconf}}
cache=${cache:-/var/cache/lsmconf}
