#!/bin/sh
# Installs the Debian packages of runner/packages.txt that are missing:
#   deps.sh [--tier NAME] [LIST]   (LIST defaults to packages.txt beside
#                                   this script)
# The list is in tiers ("tier: NAME" lines, in order: run, check,
# engines); --tier NAME takes the packages of the tiers up to NAME, else
# every tier. Nothing missing: silent, exit 0, no network access. Missing
# and root: one line naming them, then apt-get's own output (quiet when CI
# is set), and when tiers were left out, the command that adds them.
# Missing and not root: one line naming them and the command, exit 1.
# make runs this once a tier, before the first compile (the
# $(OUT)/.deps* stamps: make run the run tier, make check every tier);
# .ci/run runs it (every tier) before make is even installed.
# LSMCONF_SKIP_DEPS=1 skips the check (a machine without dpkg).
set -eu
set -f

tier=
if [ "${1:-}" = --tier ]; then
	[ $# -ge 2 ] || {
		echo "lsmconf: deps.sh --tier needs a name (run, check, engines)" >&2
		exit 1
	}
	tier=$2
	shift 2
fi
list=${1:-$(dirname "$0")/packages.txt}
if ! [ -r "$list" ]; then
	echo "lsmconf: cannot read the package list $list" >&2
	exit 1
fi
[ -z "${LSMCONF_SKIP_DEPS:-}" ] || exit 0

# The packages of the tiers up to $tier, one word each, comments dropped;
# then a last line "!later" when tiers after it were left out. Packages
# before the first tier line are in every tier (a list without tier lines
# is one tier); a tier not in the list is an error.
words=$(awk -v want="$tier" '
	{ sub(/#.*/, "") }
	$1 == "tier:" {
		if (NF != 2) { print "bad tier line " NR; err = 1; exit 3 }
		if (found) { later = 1; exit }
		cur = $2
		if (cur == want) found = 1
		next
	}
	NF { for (i = 1; i <= NF; i++) print $i }
	END {
		if (err) exit 3
		if (want != "" && !found) { print "no tier " want; exit 3 }
		if (later) print "!later"
	}' "$list") || {
	echo "lsmconf: $list: $(echo "$words" | tail -n 1)" >&2
	exit 1
}
later=
case $words in
*!later) later=yes words=${words%!later} ;;
esac
# shellcheck disable=SC2086 # split on purpose
set -- $words
[ "$#" -gt 0 ] || exit 0

if ! command -v dpkg-query > /dev/null 2>&1; then
	echo "lsmconf: no dpkg-query to check for: $*; install them, then set LSMCONF_SKIP_DEPS=1" >&2
	exit 1
fi

# "NAME STATUS" per known package, in dpkg's order; an unknown package has
# no line (and makes dpkg-query exit 1). Only "installed" counts.
nl='
'
status=$nl$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2> /dev/null || :)$nl
missing=
n=0
for p; do
	case $status in
	*"$nl$p installed$nl"*) ;;
	*)
		missing="$missing $p"
		n=$((n + 1))
		;;
	esac
done
[ "$n" -gt 0 ] || exit 0
missing=${missing# }

if [ "$(id -u)" -ne 0 ]; then
	echo "lsmconf: missing packages: $missing; install them with: sudo apt-get install $missing" >&2
	exit 1
fi

packages=packages
[ "$n" -ne 1 ] || packages=package
echo "lsmconf: installing $n $packages: $missing" >&2
export DEBIAN_FRONTEND=noninteractive
# In CI, only apt-get's warnings and errors (stderr).
case ${CI:-} in
'' | false | 0)
	quiet() { "$@"; }
	q=
	;;
*)
	quiet() { "$@" > /dev/null; }
	q=-qq
	;;
esac
# The lists may be empty (a fresh machine) or stale: always refresh them.
if ! quiet apt-get update "${q:--q}"; then
	echo "lsmconf: apt-get update failed; packages still missing: $missing" >&2
	exit 1
fi
# shellcheck disable=SC2086 # one word per package
if ! quiet apt-get install -y --no-install-recommends $q $missing; then
	echo "lsmconf: apt-get install failed; packages still missing: $missing" >&2
	exit 1
fi
if [ -n "$later" ]; then
	echo "lsmconf: installed the tiers up to $tier; make check (or sh runner/deps.sh) installs the rest" >&2
fi
