#!/bin/sh
# layers_test.sh: the layering check (runner/tests/layers.sh) on a small
# tree of its own: one that keeps the rule passes, and each breach (an
# include of another layer's inner header, an include upward, die()
# below the command line) is one line naming the file, exit 1; then this
# repository's own runner/ passes. Run from the repository's root.
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
set -u
layers="$(dirname "$0")/layers.sh"
d=$(mktemp -d build/layers-test.XXXXXX) || exit 1
trap 'rm -rf "$d"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin layers_test.sh "layers: "

# expect NAME WANT-STATUS WANT-STDOUT
expect() {
	name=$1 want_rc=$2 want_out=$3
	out=$(sh "$layers" "$d/runner" 2>&1)
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want_out" ]; then
		ok "$name: exit $rc"
	else
		no "$name: exit $rc (want $want_rc), output:"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

mkdir -p "$d/runner/lib" "$d/runner/provision" "$d/runner/session" "$d/runner/cli"
printf '#include "util.h"\nvoid f(void) { oom(); }\n' > "$d/runner/lib/util2.c"
printf '#include "lib/lib.h"\n' > "$d/runner/provision/p.c"
printf '#include "provision/provision.h"\nint g(void) { return 0; }\n' > "$d/runner/session/s.c"
printf '#include "session/session.h"\nvoid c(void) { die("x"); }\n' > "$d/runner/cli/c.c"
expect "a tree that keeps the rule" 0 ""

printf '#include "lib/util.h"\n' > "$d/runner/provision/inner.c"
expect "another layer's inner header" 1 \
	"$d/runner/provision/inner.c: includes lib/util.h, not the facade lib/lib.h"
rm "$d/runner/provision/inner.c"

printf '#include "session/session.h"\n' > "$d/runner/provision/up.c"
expect "an include upward" 1 \
	"$d/runner/provision/up.c: includes session/session.h: provision may include only lib"
rm "$d/runner/provision/up.c"

printf '#include "lib/lib.h"\nvoid h(void)\n{\n\tdie("bad");\n}\n' > "$d/runner/session/dies.c"
expect "die() below the command line" 1 \
	"$d/runner/session/dies.c:4: die() below the command line (return an error)"
rm "$d/runner/session/dies.c"

if out=$(sh "$layers" runner 2>&1); then
	ok "this repository's runner/ keeps the rule"
else
	no "this repository's runner/ breaks the rule:"
	printf '%s\n' "$out" | sed 's/^/#   /'
fi
tap_end
