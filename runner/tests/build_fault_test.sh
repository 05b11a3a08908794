#!/bin/sh
# A failed build is the kernel's only with the tool's own evidence, without
# a real kernel or a boot: a fake kernel tree, built by a stand-in make on
# PATH (fixtures/build/make). A compiler the OOM killer ends (no error line)
# is a host failure, built once more, then one line, never "does not
# build"; a compile error of the tree's is the kernel's, not retried; a
# patch patch(1) cannot read is bad input. As mutate's units: the first a
# unit that fails (to run again), the second a build that failed, a
# result (the mutant is stillborn).
#   build_fault_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d /tmp/lsmconf-build-fault.XXXXXX)
trap 'rm -rf "$t"' EXIT
# Its own cache: the fake builds stay in it.
LSMCONF_CACHE=$t/cache
LSMCONF_FAKE_STATE=$t/builds
export LSMCONF_CACHE LSMCONF_FAKE_STATE
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin build_fault_test.sh "build fault: "

# The fake tree, and an image with a bzImage's header (what lsmconf reads
# of it: "HdrS" at 0x202, the release string at 0x200 + the offset at
# 0x20e).
mkdir -p "$t/bin" "$t/tree/security/apparmor" "$t/tree/scripts/kconfig"
cp "$here/fixtures/build/make" "$t/bin/make"
cp "$here/fixtures/build/merge_config.sh" "$t/tree/scripts/kconfig/"
printf 'int aa_fake;\n' > "$t/tree/security/apparmor/af_unix.c"
LSMCONF_FAKE_IMAGE=$t/bzImage
export LSMCONF_FAKE_IMAGE
head -c 1024 /dev/zero > "$LSMCONF_FAKE_IMAGE"
poke() { printf '%b' "$2" | dd of="$LSMCONF_FAKE_IMAGE" bs=1 seek="$1" conv=notrunc 2> /dev/null; }
poke 514 'HdrS'
poke 526 '\000\001'
poke 768 '7.2.13-fake (fake@build) #1\000'
PATH=$t/bin:$PATH
export PATH
# patch PATCH LINE: a mutant adding LINE to af_unix.c.
mutant() {
	printf '%s\n\n--- a/security/apparmor/af_unix.c\n+++ b/security/apparmor/af_unix.c\n@@ -1 +1,2 @@\n int aa_fake;\n+%s\n' \
		"$2 (build_fault_test.sh)" "$2" > "$1"
}
mkdir -p "$t/mutants"
mutant "$t/mutants/01-oom.patch" OOM
mutant "$t/mutants/02-error.patch" ERROR
printf 'broken\n--- a/security/apparmor/af_unix.c\n+++ b/security/apparmor/af_unix.c\n@@ -1,3 +1,3 @@\n-int aa_fake;\n+x\nzzz\n' \
	> "$t/malformed.patch"
builds() { if [ -f "$LSMCONF_FAKE_STATE" ]; then wc -l < "$LSMCONF_FAKE_STATE"; else echo 0; fi; }

rc=0
"$lsmconf" kernel "build:$t/tree" > "$t/base.out" 2>&1 || rc=$?
check "the fake tree builds (exit $rc)" eval '[ $rc -eq 0 ] && grep -q "release 7.2.13-fake" "$t/base.out"'

# A compiler the OOM killer ended: the host's, built once more, one line.
n0=$(builds)
rc=0
"$lsmconf" kernel "build:$t/tree+$t/mutants/01-oom.patch" > "$t/oom.out" 2> "$t/oom.err" || rc=$?
check "cc1 killed, no error line: a host failure, in one line (exit $rc; $(tail -1 "$t/oom.err" | cut -c1-120))" \
	eval '[ $rc -eq 1 ] && tail -1 "$t/oom.err" | grep -q "^lsmconf: host failure: build:.*01-oom.patch: make bzImage failed (exit status 2) with no error of the tree.s in its log: gcc: fatal error: Killed signal terminated program cc1 (log: .*) (in 2 tries)$"'
check "cc1 killed: built twice ($(($(builds) - n0)) bzImage runs)" eval '[ $(($(builds) - n0)) -eq 2 ]'
check "cc1 killed: never the kernel's (no \"does not build\")" eval '! grep -qi "does not build\|stillborn" "$t/oom.err"'

# A compile error in the tree: the kernel's, once.
n0=$(builds)
rc=0
"$lsmconf" kernel "build:$t/tree+$t/mutants/02-error.patch" > "$t/error.out" 2> "$t/error.err" || rc=$?
check "a compile error of the tree's: the kernel's, in one line (exit $rc)" \
	eval '[ $rc -eq 1 ] && [ $(wc -l < "$t/error.err") -eq 1 ] && grep -q "^lsmconf: build:.*02-error.patch: make bzImage failed (exit status 2): ../security/apparmor/af_unix.c:2:1: error: unknown type name .ERROR. (log: " "$t/error.err"'
check "a compile error: built once ($(($(builds) - n0)) bzImage runs)" eval '[ $(($(builds) - n0)) -eq 1 ]'

# A patch whose hunks do not add up: bad input, in one line, refused by the
# spec check (diff_check()) before anything is built, not "does not apply".
rc=0
"$lsmconf" kernel "build:$t/tree+$t/malformed.patch" > "$t/mal.out" 2> "$t/mal.err" || rc=$?
check "a malformed patch: bad input, in one line (exit $rc; $(cut -c1-120 "$t/mal.err"))" \
	eval '[ $rc -eq 1 ] && [ $(wc -l < "$t/mal.err") -eq 1 ] && grep -q "malformed.patch: line 7: the hunk of line 4 .* ends early" "$t/mal.err" && ! grep -q "host failure" "$t/mal.err"'

# As mutate's units: the OOM-killed build fails its unit (no result, run
# again); the compile error is a result, status failed: stillborn.
S=$t/store
"$lsmconf" plan --store "$S" mutate --source "$t/tree" --mutants "$t/mutants" \
	--lsm apparmor > /dev/null
id_of() { grep " -- $1\$" "$S/plan.tsv" | cut -d' ' -f1; }
"$lsmconf" unit --store "$S" "$(id_of "build build:$t/tree")" > /dev/null 2>&1 || true
rc=0
"$lsmconf" unit --store "$S" "$(id_of "build mutant 01-oom")" > /dev/null 2> "$t/u1.err" || rc=$?
check "mutate: the OOM-killed mutant's build unit fails, no result (exit $rc)" \
	eval '[ $rc -ne 0 ] && grep -q "host failure" "$t/u1.err" && [ ! -e "$S/units/$(id_of "build mutant 01-oom")" ]'
rc=0
"$lsmconf" unit --store "$S" "$(id_of "build mutant 02-error")" > /dev/null 2>&1 || rc=$?
check "mutate: the mutant with a compile error is a result, its build failed: stillborn (exit $rc)" \
	eval '[ $rc -eq 0 ] && grep -q "^status failed$" "$S/units/$(id_of "build mutant 02-error")/kernel.tsv"'

tap_end
