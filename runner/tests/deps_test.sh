#!/bin/sh
# Unit checks of runner/deps.sh with a fake dpkg-query, apt-get and id on
# PATH: nothing is installed and no network is used.
#   deps_test.sh [path/to/deps.sh]
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
set -u
D=${1:-$(dirname "$0")/../deps.sh}
T=$(mktemp -d /tmp/lsmconf-deps.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_begin deps_test.sh "deps: "

# FAKE_INSTALLED: the installed packages; FAKE_UID: what `id -u` says;
# FAKE_APT_FAIL: the apt-get subcommand that fails. apt-get calls are
# logged, one line each, to $T/apt.log.
mkdir "$T/bin"
cat > "$T/bin/dpkg-query" << 'EOF'
#!/bin/sh
[ "$1" = -W ] && [ "$2" = '-f=${Package} ${db:Status-Status}\n' ] || exit 2
shift 2
rc=0
for p; do
	case " $FAKE_INSTALLED " in
	*" $p "*) echo "$p installed" ;;
	*" $p:half "*) echo "$p half-installed" ;;
	*)
		echo "dpkg-query: no packages found matching $p" >&2
		rc=1
		;;
	esac
done
exit "$rc"
EOF
cat > "$T/bin/apt-get" << 'EOF'
#!/bin/sh
echo "$*" >> "$FAKE_LOG"
echo "apt-get output"
[ "$1" != "${FAKE_APT_FAIL:-}" ]
EOF
cat > "$T/bin/id" << 'EOF'
#!/bin/sh
[ "$1" = -u ] && echo "$FAKE_UID"
EOF
chmod +x "$T/bin/dpkg-query" "$T/bin/apt-get" "$T/bin/id"

cat > "$T/list" << 'EOF'
# a comment naming notapackage
tier: run
alpha   # why alpha

beta
tier: check   # what make check adds
gamma	# a tab before the comment
EOF

# deps ENV...: runs deps.sh $args (words, usually none) on $T/list with
# ENV; sets rc, $T/out, $T/err.
args=
deps() {
	: > "$T/apt.log"
	# shellcheck disable=SC2086 # one word per argument
	env PATH="$T/bin:$PATH" FAKE_LOG="$T/apt.log" CI= LSMCONF_SKIP_DEPS= \
		FAKE_UID=1000 FAKE_INSTALLED= "$@" \
		sh "$D" $args "$T/list" > "$T/out" 2> "$T/err"
	rc=$?
}

# exits WHAT WANT: deps.sh's exit status is WANT ("non-zero": not 0).
exits() {
	got=$rc
	[ "$2" != non-zero ] || [ "$rc" -eq 0 ] || got=non-zero
	if [ "$got" = "$2" ]; then
		ok "$1: exit $rc"
	else
		no "$1: exit $rc, wanted $2"
	fi
}

# is WHAT FILE EXPECTED: FILE's contents are exactly EXPECTED.
is() {
	if [ "$(cat "$2")" = "$3" ]; then
		ok "$1"
	else
		no "$1"
		echo "#   wanted: $3"
		sed 's/^/#   got:    /' "$2"
	fi
}

deps FAKE_INSTALLED="alpha beta gamma"
exits "nothing missing" 0
is "nothing missing: silent" "$T/err" ""
is "nothing missing: no apt-get" "$T/apt.log" ""

deps FAKE_INSTALLED="alpha beta:half"
exits "missing, not root" 1
is "missing, not root: one line naming them and the command" "$T/err" \
	"lsmconf: missing packages: beta gamma; install them with: sudo apt-get install beta gamma"
is "missing, not root: no apt-get" "$T/apt.log" ""

deps FAKE_INSTALLED=beta FAKE_UID=0
exits "missing, root" 0
is "missing, root: one line naming them" "$T/err" \
	"lsmconf: installing 2 packages: alpha gamma"
is "missing, root: apt-get update, then install of exactly those" "$T/apt.log" \
	"update -q
install -y --no-install-recommends alpha gamma"
is "missing, root: apt-get's own output shown" "$T/out" "apt-get output
apt-get output"

deps FAKE_INSTALLED="alpha gamma" FAKE_UID=0 CI=true
is "CI: apt-get quiet (-qq)" "$T/apt.log" \
	"update -qq
install -y --no-install-recommends -qq beta"
is "CI: one line, apt-get's output discarded" "$T/err" \
	"lsmconf: installing 1 package: beta"
is "CI: nothing on stdout" "$T/out" ""

deps FAKE_UID=0 FAKE_APT_FAIL=install
exits "apt-get fails" non-zero
is "apt-get fails: one line after the first" "$T/err" \
	"lsmconf: installing 3 packages: alpha beta gamma
lsmconf: apt-get install failed; packages still missing: alpha beta gamma"

deps LSMCONF_SKIP_DEPS=1
exits "LSMCONF_SKIP_DEPS=1" 0

# Tiers: make run installs the first only, and names what adds the rest.
args="--tier run"
deps FAKE_UID=0
exits "--tier run" 0
is "--tier run: its packages only" "$T/apt.log" \
	"update -q
install -y --no-install-recommends alpha beta"
is "--tier run: says what installs the rest" "$T/err" \
	"lsmconf: installing 2 packages: alpha beta
lsmconf: installed the tiers up to run; make check (or sh runner/deps.sh) installs the rest"
args="--tier check"
deps FAKE_UID=0
is "--tier check: the tiers up to it" "$T/apt.log" \
	"update -q
install -y --no-install-recommends alpha beta gamma"
is "--tier check, the last: nothing more to say" "$T/err" \
	"lsmconf: installing 3 packages: alpha beta gamma"
args="--tier nope"
deps FAKE_UID=0
exits "an unknown tier" 1
is "an unknown tier: one line" "$T/err" "lsmconf: $T/list: no tier nope"
args=--tier
deps FAKE_UID=0
exits "--tier without a name" 1
args=
cp "$T/list" "$T/list.good"
printf 'early\n' | cat - "$T/list.good" > "$T/list"
args="--tier run"
deps FAKE_INSTALLED="alpha beta" FAKE_UID=0
is "a package before any tier line is in every tier" "$T/apt.log" \
	"update -q
install -y --no-install-recommends early"
args=
printf 'solo\n' > "$T/list"
deps FAKE_UID=0
is "a list without tier lines: one tier, all of it" "$T/apt.log" \
	"update -q
install -y --no-install-recommends solo"
printf 'tier: run extra\n' > "$T/list"
deps FAKE_UID=0
is "a tier line of three words: one line" "$T/err" \
	"lsmconf: $T/list: bad tier line 1"
cp "$T/list.good" "$T/list"

# The project's own list: names only, every one looked up.
: > "$T/apt.log"
env PATH="$T/bin:$PATH" FAKE_LOG="$T/apt.log" CI= LSMCONF_SKIP_DEPS= \
	FAKE_UID=1000 FAKE_INSTALLED= sh "$D" > "$T/out" 2> "$T/err"
rc=$?
names=$(sed -n 's/^lsmconf: missing packages: \(.*\); install.*/\1/p' "$T/err")
want=$(awk '{ sub(/#.*/, "") } $1 == "tier:" { next }
	{ for (i = 1; i <= NF; i++) printf "%s ", $i }' \
	"$(dirname "$D")/packages.txt")
if [ "$rc" -eq 1 ] && [ -n "$names" ] && [ "$names " = "$want" ]; then
	ok "packages.txt: $(echo "$names" | wc -w) packages"
else
	no "packages.txt (exit $rc): got '$names', wanted '$want'"
fi

tap_end
