#!/bin/sh
# doccheck_test.sh DOCCHECK: the doc check against this repository's own
# Makefile and runner/cli/ (test_doccheck covers the rules on fixed text):
# real names pass, one stale name of each kind is reported on its line,
# bad input is one line and exit 1. Run from the repository's root.
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
set -u
doccheck=$1
d=$(mktemp -d build/doccheck-test.XXXXXX) || exit 1
trap 'rm -rf "$d"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin doccheck_test.sh "doccheck: "

# expect NAME WANT-STATUS WANT-STDOUT ARGS...
expect() {
	name=$1 want_rc=$2 want_out=$3
	shift 3
	out=$("$doccheck" "$@" 2>"$d/err")
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want_out" ]; then
		ok "$name: exit $rc"
	else
		no "$name: exit $rc (want $want_rc), output:"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

cat >"$d/good.md" <<'EOF'
`make check` runs `make docs`; `build/lsmconf run --test features_test
--lsm apparmor --known-bugs FILE debian:sid`, `lsmconf mutate --mutant X`.
See `runner/cli/main.c`, `build/tests/test_abi`, `crash_test` and
`fixtures/patches/unconfined-early-return.patch`.
EOF
expect "names that exist" 0 "" "$d/good.md"

cat >"$d/stale.md" <<'EOF'
`make chek`

`runner/cli/nope.c`

```sh
build/lsmconf rnu debian:sid
build/lsmconf run --tets x debian:sid
```

the `nope_test` binary
EOF
expect "stale names" 1 "$d/stale.md:1: no such make target: chek
$d/stale.md:3: no such file: runner/cli/nope.c
$d/stale.md:6: no such lsmconf subcommand: rnu
$d/stale.md:7: no such lsmconf option: --tets
$d/stale.md:10: no such test: nope_test" "$d/stale.md"

expect "a missing file" 1 "" "$d/missing.md"
check "a missing file: one line on stderr" [ "$(wc -l <"$d/err")" -eq 1 ]
expect "no arguments" 1 ""

tap_end
