#!/bin/sh
# The in-tree build check (make intree, part of make check): the tests
# as upstream would get them. lsmconf selftests-series writes the series
# against KSRC; git am applies it to a throwaway copy of KSRC (hard
# links, and real copies of the files the series edits, so KSRC is never
# written); checkpatch --strict finds 0 errors and 0 warnings in any
# patch; the kernel's own make builds and installs TARGETS there; the
# installed list must be WANT (the skeleton install's
# kselftest-list.txt, the programs the guests run).
#   intree_test.sh [-o INSTALL] LSMCONF KSRC WANT [TARGETS]
# TARGETS defaults to "apparmor selinux". With -o the install is kept in
# INSTALL (replaced; make check boots it: e2e.sh), else it goes with the
# copy. The series comes from lsmconf's HEAD commit: uncommitted changes
# to the tests are not in it.
set -eu
keep=
if [ "${1:-}" = -o ] && [ $# -ge 2 ]; then
	keep=$2
	shift 2
fi
[ $# -eq 3 ] || [ $# -eq 4 ] || {
	echo "usage: $0 [-o INSTALL] LSMCONF KSRC WANT [TARGETS]" >&2
	exit 2
}
lsmconf=$1
ksrc=$2
want=$3
targets=${4:-apparmor selinux}
st=tools/testing/selftests
[ -r "$ksrc/$st/lib.mk" ] || { echo "intree: $ksrc has no $st/lib.mk" >&2; exit 1; }
[ -r "$want" ] || { echo "intree: $want: no such list (make selftests)" >&2; exit 1; }
t=$(mktemp -d /tmp/lsmconf-intree.XXXXXX)
trap 'rm -rf "$t"' EXIT
install=${keep:-$t/install}
if [ -n "$keep" ]; then
	rm -rf "$keep"
	mkdir -p "$keep"
	install=$(cd "$keep" && pwd)
fi
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin intree_test.sh "intree: "
# step NAME LOG CMD...: CMD must succeed; its output goes to LOG, the
# last lines of which are shown when it fails. Timed.
step() {
	name=$1
	log=$2
	shift 2
	s0=$(date +%s)
	if "$@" > "$log" 2>&1; then
		ok "$name ($(($(date +%s) - s0)) s)"
	else
		no "$name (exit $?)"
		tail -5 "$log" | sed 's/^/#   /'
		tap_end
		exit 1
	fi
}

step "selftests-series against $ksrc" "$t/series.log" \
	"$lsmconf" selftests-series --out "$t/series" "$ksrc"
# The patches (not the cover letter), and the files they edit (the
# others they add). Paths under mktemp's directory: no spaces.
patches=
for p in "$t"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) ;; *) patches="$patches $p" ;; esac
done
# shellcheck disable=SC2086 # one word per path
edits=$(sed -n 's|^--- a/||p' $patches | sort -u)
# shellcheck disable=SC2086 # one word per path
sums() { (cd "$ksrc" && sha256sum -- $edits); }
sums > "$t/before"

# checkpatch --strict over every patch, with checkpatch.sh's ignore list
# (each type's reason is there): 0 errors and 0 warnings.
# shellcheck disable=SC2086 # one word per path
step "checkpatch --strict over the $(echo "$patches" | wc -w) patches: 0 errors, 0 warnings" \
	"$t/checkpatch.log" sh "$(dirname "$0")/../checkpatch.sh" "$ksrc" $patches
sed -n 's/^checkpatch: /#   /p' "$t/checkpatch.log"

k=$t/k
copy() {
	cp -al "$ksrc" "$k"
	rm -rf "$k/.git"
	for f in $edits; do
		rm -f "$k/$f"
		cp "$ksrc/$f" "$k/$f"
	done
	# A throwaway baseline of the edited files alone (the rest of the
	# tree is there, untracked): -f, as Debian's .gitignore ignores /*.
	git -C "$k" init -q
	# shellcheck disable=SC2086 # one word per path
	git -C "$k" add -f -- $edits
	git -C "$k" -c user.name=intree -c user.email=intree@example.org \
		commit -qm baseline
}
step "a hard-linked copy, a git baseline of $(echo "$edits" | paste -sd ' ' -)" \
	"$t/copy.log" copy
# shellcheck disable=SC2086 # one word per path
step "git am applies $(echo "$patches" | wc -w) patches" \
	"$t/am.log" git -C "$k" -c user.name=intree -c user.email=intree@example.org \
	am $patches
step "make -C $st TARGETS=\"$targets\" install" "$t/make.log" \
	make -C "$k/$st" TARGETS="$targets" INSTALL_PATH="$install" install
# The programs the tree installed are those the guests run.
for x in $targets; do
	grep "^$x:" "$want" | sort > "$t/want.$x"
	grep "^$x:" "$install/kselftest-list.txt" | sort > "$t/got.$x"
	n=$(grep -c . "$t/got.$x" || true)
	if [ "$n" -gt 0 ] && cmp -s "$t/want.$x" "$t/got.$x"; then
		ok "$x: the $n programs of the skeleton install"
	else
		no "$x: $n programs, not those of $want"
		diff "$t/want.$x" "$t/got.$x" | head -5 | sed 's/^/#   /'
	fi
done
# What the build left in the test directories is what their .gitignore
# names: nothing untracked once the copy's own top .gitignore (Debian's,
# which ignores /*) is out of the way (a link in the copy: KSRC keeps it).
rm -f "$k/.gitignore"
dirs=
for x in $targets; do dirs="$dirs $st/$x"; done
# shellcheck disable=SC2086 # one word per path
left=$(git -C "$k" status --porcelain --untracked-files=all -- $dirs)
if [ -z "$left" ]; then
	ok "the build leaves nothing in$dirs that its .gitignore does not name"
else
	no "the build leaves files no .gitignore names"
	echo "$left" | head -5 | sed 's/^/#   /'
fi
if sums | cmp -s - "$t/before" && [ ! -e "$ksrc/$st/lsmconf" ]; then
	ok "KSRC left alone"
else
	no "KSRC was changed"
fi
tap_end
