#!/bin/sh
# lsmconf report-bug: every listed known kernel bug comes out as a mail
# (To:/Cc: from the tree's get_maintainer.pl, a subject, the evidence,
# the reproducer and the fix inline), and bad input is one line and a
# non-zero exit. The kernel tree is a stand-in: a get_maintainer.pl that
# prints two people and a list, whatever it is asked.
#   report_bug_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
t=$(mktemp -d /tmp/lsmconf-report-bug.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin report_bug_test.sh "report-bug: "

k=$t/tree
mkdir -p "$k/scripts" "$k/tools/testing/selftests"
: > "$k/tools/testing/selftests/kselftest_harness.h"
: > "$k/tools/testing/selftests/lib.mk"
: > "$k/MAINTAINERS"
cat > "$k/scripts/get_maintainer.pl" <<'PL'
print "A Maintainer <a\@example.org>\nB Reviewer <b\@example.org>\nlist\@example.org\n";
print STDERR "asked: @ARGV\n";
PL

bugs=$(sed -n 's/^bug: //p' "$root/fixtures/known-kernel-bugs")
for b in $bugs; do
	rc=0
	"$lsmconf" report-bug "$b" --ksrc "$k" > "$t/$b" 2> "$t/$b.err" || rc=$?
	check "$b: a mail, exit 0 ($rc)" eval '[ $rc -eq 0 ] &&
		[ "$(sed -n 1p "$t/$b")" = "To: A Maintainer <a@example.org>, B Reviewer <b@example.org>" ] &&
		[ "$(sed -n 2p "$t/$b")" = "Cc: list@example.org" ] &&
		sed -n 3p "$t/$b" | grep -q "^Subject: \[BUG\] apparmor: [a-z_]*(): " &&
		[ -z "$(sed -n 4p "$t/$b")" ]'
	check "$b: the body is mail-sized (lines of 72 columns, but the inline files)" \
		eval '! sed -n "/^Hello,/,/^\(Reproducer\|There is no\)/p" "$t/$b" | grep -q ".\{73\}"'
	if [ -f "$root/fixtures/reproducers/$b.c" ]; then
		check "$b: its reproducer and profile inline" eval \
			'grep -q "^--- $b.c ---$" "$t/$b" && grep -q "^--- $b.profile ---$" "$t/$b" &&
			 grep -qF "  $(sed -n 2p "$root/fixtures/reproducers/$b.c")" "$t/$b"'
	fi
	if [ -f "$root/fixtures/fixes/$b.patch" ]; then
		check "$b: its fix inline" eval \
			'grep -qxF "$(grep -m1 "^+++ " "$root/fixtures/fixes/$b.patch")" "$t/$b"'
	else
		check "$b: no fix yet, said so" eval 'grep -q "^There is no candidate fix yet.$" "$t/$b"'
	fi
done

# Each reproducer builds alone (warnings are errors), and without its
# profile argument it does nothing but say so: a KTAP skip, exit 4. It
# is never run here with one: it would load policy on this host.
for c in "$root"/fixtures/reproducers/*.c; do
	b=$(basename "$c" .c)
	rc=0
	cc -static -Wall -Wextra -Werror -O2 -o "$t/$b.repro" "$c" 2> "$t/$b.cc" &&
		"$t/$b.repro" > "$t/$b.noarg" 2>&1 || rc=$?
	check "reproducer $b: builds, and without a profile skips, exit 4 ($rc)" eval \
		'[ $rc -eq 4 ] && [ -f "$root/fixtures/reproducers/$b.profile" ] &&
		 grep -qx "ok 1 $b # SKIP no profile file given" "$t/$b.noarg"'
done

rc=0
"$lsmconf" report-bug no-such-bug --ksrc "$k" > "$t/none" 2>&1 || rc=$?
check "an unknown bug: one line, exit 1 ($rc)" eval \
	'[ $rc -eq 1 ] && [ "$(wc -l < "$t/none")" -eq 1 ] && grep -q "no bug no-such-bug in" "$t/none"'
rm "$k/scripts/get_maintainer.pl"
rc=0
"$lsmconf" report-bug "$(echo "$bugs" | head -1)" --ksrc "$k" > "$t/nopl" 2>&1 || rc=$?
check "a tree without get_maintainer.pl: one line, exit 1 ($rc)" eval \
	'[ $rc -eq 1 ] && [ "$(wc -l < "$t/nopl")" -eq 1 ] && grep -q "has no scripts/get_maintainer.pl" "$t/nopl"'
rc=0
"$lsmconf" report-bug --bogus x > "$t/opt" 2>&1 || rc=$?
check "an unknown option: one line, exit 1 ($rc)" eval \
	'[ $rc -eq 1 ] && [ "$(wc -l < "$t/opt")" -eq 1 ]'
tap_end
