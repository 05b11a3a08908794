#!/bin/sh
# The guest's /usr/bin/timeout (runner/guest/timeout.c), run on the host:
# GNU timeout's statuses as kselftest's runner.sh and the guest init read
# them, the signal to the whole group, and nothing left behind once the
# program has ended (busybox's timeout leaves a child that polls once a
# second; the last check shows the same check catching it).
#   guest_timeout_test.sh TIMEOUT
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Programs are run by sh -c 'SCRIPT' sh ARG, the script quoted here:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 TIMEOUT" >&2; exit 2; }
to=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d /tmp/lsmconf-guest-timeout.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin guest_timeout_test.sh "guest timeout: "

# status WANT CMD...: CMD exits with WANT.
status() {
	want=$1
	shift
	set +e
	"$@" > "$t/out" 2>&1
	got=$?
	set -e
	[ "$got" -eq "$want" ] && return 0
	echo "# $*: status $got, wanted $want: $(head -c 200 "$t/out")"
	return 1
}

check "the program's own status" status 3 "$to" 5 sh -c 'exit 3'
check "a program killed by a signal: 128 + N" \
	status 138 "$to" 5 sh -c 'kill -USR1 $$'
check "ended by the bound: 124" status 124 "$to" 0.2 sleep 30
check "ended by the bound with -s KILL: 137" \
	status 137 "$to" -s KILL 0.2 sleep 30
check "-s TERM -k 0.2: KILL after a TERM the program ignores: 137" \
	status 137 "$to" -s TERM -k 0.2 0.2 sh -c 'trap "" TERM; sleep 30'
check "runner.sh's nesting (--foreground S timeout S CMD)" \
	status 0 "$to" --foreground 5 "$to" 5 true
check "runner.sh's nesting, ended by the bound: 124" \
	status 124 "$to" --foreground 0.3 "$to" 0.3 sleep 30
check "a command not found: 127" status 127 "$to" 5 "$t/none"
: > "$t/plain"
check "a command that cannot run: 126" status 126 "$to" 5 "$t/plain"
check "an unknown signal: 125" status 125 "$to" -s BOGUS 5 true
check "a bad duration: 125" status 125 "$to" 5x true
check "no command: 125" status 125 "$to" 5

# The bound reaches the program's children (GNU's process group): the
# child holds the pipe to cat, which ends when the last holder has gone
# (the host's timeout bounds the check if it never does).
pipe_closes() { timeout 20 sh -c '"$1" 0.3 sh -c "sleep 60 & wait" | cat' sh "$to"; }
check "the program's children are ended with it" pipe_closes

# left CMD...: after CMD returns, a process with CMD's unique argument
# remains (a timer child of CMD's timeout that still holds its output).
left() {
	mark=lsmconf-mark-$$-$1
	shift
	"$@" sh -c ': "$1"' sh "$mark" || return 2
	pgrep -f -- "$mark" > /dev/null
}
nothing_left() { ! left ours "$to" 30; }
check "nothing remains once the program has ended" nothing_left
if command -v busybox > /dev/null; then
	# The same check tells busybox's timeout apart: it can fail.
	check "busybox's timeout, in its place, leaves its timer behind" \
		left busybox busybox timeout 30
	pkill -f -- "lsmconf-mark-$$-busybox" || true
else
	skip "busybox's timeout, in its place, leaves its timer behind" \
		"no busybox on this host"
fi

tap_end
