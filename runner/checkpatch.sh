#!/bin/sh
# The kernel's scripts/checkpatch.pl --strict over every file of the
# suites (-f), or over the patches of the upstream series (FILEs all
# *.patch), as upstream review would run it: prints the counts and each
# error and warning; exit 1 unless there are 0 errors and 0 warnings.
# Usage: runner/checkpatch.sh KSRC FILE...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KSRC FILE..." >&2; exit 2; }
cp="$1/scripts/checkpatch.pl"
shift
[ -x "$cp" ] || { echo "checkpatch: no $cp (make build/ksrc, or KSRC=)" >&2; exit 1; }
out=$(mktemp)
# checkpatch leaves its camelcase cache in the working directory.
trap 'rm -f "$out" .checkpatch-camelcase.git.' EXIT
# Types that cannot apply to user-space kselftest code, one reason each
# (docs/runner-guest.md, "checkpatch"); every other type counts.
# MACRO_WITH_FLOW_CONTROL: SKIP()/ASSERT-like wrappers return from the TEST
#   body, exactly as kselftest_harness.h's own SKIP() and ASSERT_*() do.
# MACRO_ARG_UNUSED: those wrappers take _metadata by name so that, like the
#   harness's ASSERT_*(), they only compile inside a TEST body.
# STRCPY: strscpy() is kernel-only; the copies are into buffers sized for them.
# PREFER_DEFINED_ATTRIBUTE_MACRO: __printf() is kernel-only.
# SSCANF_TO_KSTRTO: kstrto*() is kernel-only.
# ENOSYS: the test asks whether a syscall exists, which is what ENOSYS means.
# STATIC_CONST_CHAR_ARRAY: local argument vectors for execv(), which takes
#   char *const[]; some hold run-time paths, none is a shared table.
# REPEATED_WORD: generator tables list a client and a server label, which
#   may be the same word ("unconfined unconfined").
# EMBEDDED_FUNCTION_NAME: "enter" is a recorded step name, not the
#   function's name; the records must not change.
# LINE_SPACING: checkpatch does not read the harness's FIXTURE_DATA(x) *
#   and const FIXTURE_VARIANT(x) * as declaration types.
ignore=MACRO_WITH_FLOW_CONTROL,MACRO_ARG_UNUSED,STRCPY,PREFER_DEFINED_ATTRIBUTE_MACRO
ignore=$ignore,SSCANF_TO_KSTRTO,ENOSYS,STATIC_CONST_CHAR_ARRAY,REPEATED_WORD
ignore=$ignore,EMBEDDED_FUNCTION_NAME,LINE_SPACING
# Patches as patches (with their commit messages), anything else with -f.
f=-f
case $1 in *.patch) f= ;; esac
for x in "$@"; do
	case $x in *.patch) [ -z "$f" ] ;; *) [ -n "$f" ] ;; esac ||
		{ echo "checkpatch: $x: patches and other files in one call" >&2; exit 2; }
done
# checkpatch exits 1 on any finding; the counts below decide.
# shellcheck disable=SC2086 # $f is -f or nothing
"$cp" --strict --no-tree --no-summary --terse --show-types --ignore "$ignore" \
	$f "$@" > "$out" 2>&1 || :
# With -f, checkpatch reports some types as CHECK that it reports as
# WARNING (or ERROR) in a patch, LONG_LINE* above all ($msg_level = \&CHK
# if ($file)); they count as what the series would get.
demoted='LONG_LINE|LONG_LINE_STRING|LONG_LINE_COMMENT|TYPO_SPELLING'
demoted="$demoted|FSF_MAILING_ADDRESS|SPDX_LICENSE_TAG|AVOID_BUG|PREFER_FALLTHROUGH"
e=$(grep -c ': ERROR:' "$out" || :)
w=$(grep -cE ": (WARNING:|CHECK:($demoted):)" "$out" || :)
c=$(grep -c ': CHECK:' "$out" || :)
c=$((c - $(grep -cE ": CHECK:($demoted):" "$out" || :)))
grep -E ": (ERROR|WARNING|CHECK:($demoted)):" "$out" || :
echo "checkpatch: $e errors, $w warnings, $c checks"
[ "$e" -eq 0 ] && [ "$w" -eq 0 ]
