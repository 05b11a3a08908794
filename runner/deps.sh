#!/bin/sh
# Installs the Debian packages of runner/packages.txt that are missing:
#   deps.sh [LIST]      (LIST defaults to packages.txt beside this script)
# Nothing missing: silent, exit 0, no network access. Missing and root: one
# line naming them, then apt-get's own output (quiet when CI is set).
# Missing and not root: one line naming them and the command, exit 1.
# make runs this once, before the first compile (the $(OUT)/.deps stamp);
# .ci/run runs it before make is even installed.
# LSMCONF_SKIP_DEPS=1 skips the check (a machine without dpkg).
set -eu
set -f

list=${1:-$(dirname "$0")/packages.txt}
if ! [ -r "$list" ]; then
	echo "lsmconf: cannot read the package list $list" >&2
	exit 1
fi
[ -z "${LSMCONF_SKIP_DEPS:-}" ] || exit 0

# One word per package, comments dropped (globbing is off).
# shellcheck disable=SC2046 # split on purpose
set -- $(sed 's/#.*//' "$list")
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
