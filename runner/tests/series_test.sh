#!/bin/sh
# lsmconf selftests-series on a small fake kernel tree: the series is
# the same twice, applies with git am, adds what it should, and leaves
# the tree it was made from alone.
#   series_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
t=$(mktemp -d /tmp/lsmconf-series-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin series_test.sh "series: "

k=$t/k
st=$k/tools/testing/selftests
mkdir -p "$st"
printf 'TARGETS += acct\nTARGETS += lsm\nTARGETS += sysctl\n\ninclude lib.mk\n' > "$st/Makefile"
printf '# lib.mk stub\n' > "$st/lib.mk"
printf 'APPARMOR SECURITY MODULE\nM:\tA <a@example.org>\nF:\tsecurity/apparmor/\n\nSELINUX SECURITY MODULE\nM:\tS <s@example.org>\nF:\tsecurity/selinux/\n' > "$k/MAINTAINERS"
cp -R "$k" "$t/orig"
# No identity anywhere: the placeholder sign-off.
home=$t/home
mkdir -p "$home"

for n in 1 2; do
	if HOME=$home GIT_CONFIG_GLOBAL=/dev/null "$lsmconf" selftests-series \
		--out "$t/s$n" "$k" > "$t/out$n" 2> "$t/err$n"; then
		ok "run $n exits 0"
	else
		no "run $n exits 0: $(cat "$t/err$n")"
	fi
done
check "a cover letter and 3 patches" eval '[ "$(ls "$t/s1" | wc -l)" -eq 4 ]'
check "byte-identical on a second run" eval 'diff -r "$t/s1" "$t/s2" > /dev/null'
check "placeholder sign-off in every patch" \
	eval '[ "$(grep -l "^Signed-off-by: Your Name <you@example.org>$" "$t"/s1/000[1-3]-*.patch | wc -l)" -eq 3 ]'
check "placeholder named on stderr" eval 'grep -q "fill in yours" "$t/err1"'
check "KSRC left alone" eval 'diff -r "$k" "$t/orig" > /dev/null'
check "no runner or docs paths in the series" eval '! grep -q "runner/\|docs/\|build/" "$t"/s1/000[1-3]-*.patch'

git -C "$k" init -q
git -C "$k" add -A
git -C "$k" -c user.name=t -c user.email=t@example.org commit -qm base
if git -C "$k" -c user.name=t -c user.email=t@example.org am -q "$t"/s1/000[1-3]-*.patch > "$t/am" 2>&1; then
	ok "git am applies the series"
else
	no "git am applies the series: $(head -3 "$t/am")"
fi
check "TARGETS in name order" \
	eval '[ "$(grep "^TARGETS" "$st/Makefile" | tr "\n" " ")" = "TARGETS += acct TARGETS += apparmor TARGETS += lsm TARGETS += selinux TARGETS += sysctl " ]'
check "the test directories and headers" \
	eval '[ -f "$st/apparmor/Makefile" ] && [ -f "$st/selinux/Makefile" ] && [ -f "$st/lsmconf/lsmconf.h" ]'
check "MAINTAINERS F: lines" \
	eval '[ "$(grep -c "^F:	tools/testing/selftests/" "$k/MAINTAINERS")" -eq 4 ]'
# Each patch that adds a directory names it in MAINTAINERS (checkpatch's
# FILE_PATH_CHANGES): lsmconf/ twice, apparmor/ and selinux/ once.
for d in lsmconf:1:2 apparmor:2:1 selinux:3:1; do
	n=${d#*:}
	check "patch ${n%:*} adds ${d%%:*}/ to MAINTAINERS" \
		eval "[ \"\$(grep -c '^+F:	tools/testing/selftests/${d%%:*}/\$' \"\$t\"/s1/000${n%:*}-*.patch)\" -eq ${n#*:} ]"
done

if "$lsmconf" selftests-series --out "$t/s3" "$t/nope" 2> "$t/err3"; then
	no "not a kernel tree: non-zero"
else
	check "not a kernel tree: one line, non-zero" \
		eval '[ "$(wc -l < "$t/err3")" -eq 1 ] && grep -q "not a kernel tree" "$t/err3"'
fi

tap_end
