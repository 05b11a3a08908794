#!/bin/sh
# lsmconf selftests-series on a small fake kernel tree: the series is
# the same twice, applies with git am, adds what it should, and leaves
# the tree it was made from alone.
#   series_test.sh LSMCONF
# The checks are strings check() evaluates later:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
t=$(mktemp -d /tmp/lsmconf-series-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
pass=0
fail=0
ok() { echo "ok - series: $1"; pass=$((pass + 1)); }
nok() { echo "not ok - series: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

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
		nok "run $n exits 0: $(cat "$t/err$n")"
	fi
done
check "a cover letter and 3 patches" '[ "$(ls "$t/s1" | wc -l)" -eq 4 ]'
check "byte-identical on a second run" 'diff -r "$t/s1" "$t/s2" > /dev/null'
check "placeholder sign-off in every patch" \
	'[ "$(grep -l "^Signed-off-by: Your Name <you@example.org>$" "$t"/s1/000[1-3]-*.patch | wc -l)" -eq 3 ]'
check "placeholder named on stderr" 'grep -q "fill in yours" "$t/err1"'
check "KSRC left alone" 'diff -r "$k" "$t/orig" > /dev/null'
check "no runner or docs paths in the series" '! grep -q "runner/\|docs/\|build/" "$t"/s1/000[1-3]-*.patch'

git -C "$k" init -q
git -C "$k" add -A
git -C "$k" -c user.name=t -c user.email=t@example.org commit -qm base
if git -C "$k" -c user.name=t -c user.email=t@example.org am -q "$t"/s1/000[1-3]-*.patch > "$t/am" 2>&1; then
	ok "git am applies the series"
else
	nok "git am applies the series: $(head -3 "$t/am")"
fi
check "TARGETS in name order" \
	'[ "$(grep "^TARGETS" "$st/Makefile" | tr "\n" " ")" = "TARGETS += acct TARGETS += apparmor TARGETS += lsm TARGETS += selinux TARGETS += sysctl " ]'
check "the test directories and headers" \
	'[ -f "$st/apparmor/Makefile" ] && [ -f "$st/selinux/Makefile" ] && [ -f "$st/lsmconf/lsmconf.h" ]'
check "MAINTAINERS F: lines" \
	'[ "$(grep -c "^F:	tools/testing/selftests/" "$k/MAINTAINERS")" -eq 4 ]'
# Each patch that adds a directory names it in MAINTAINERS (checkpatch's
# FILE_PATH_CHANGES): lsmconf/ twice, apparmor/ and selinux/ once.
for d in lsmconf:1:2 apparmor:2:1 selinux:3:1; do
	n=${d#*:}
	check "patch ${n%:*} adds ${d%%:*}/ to MAINTAINERS" \
		"[ \"\$(grep -c '^+F:	tools/testing/selftests/${d%%:*}/\$' \"\$t\"/s1/000${n%:*}-*.patch)\" -eq ${n#*:} ]"
done

if "$lsmconf" selftests-series --out "$t/s3" "$t/nope" 2> "$t/err3"; then
	nok "not a kernel tree: non-zero"
else
	check "not a kernel tree: one line, non-zero" \
		'[ "$(wc -l < "$t/err3")" -eq 1 ] && grep -q "not a kernel tree" "$t/err3"'
fi

echo "series_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
