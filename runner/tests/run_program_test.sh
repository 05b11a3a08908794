#!/bin/sh
# The guest's /lsmconf/run-program (runner/guest/run-program), run on the
# host against run_kselftest.sh of the same kselftest install: for each
# program of a fixture collection, the same output (byte for byte) and
# the same exit status as "./run_kselftest.sh -t COLL:NAME [-o LIMIT]".
# An install whose runner.sh lacks what it needs runs run_kselftest.sh.
#   run_program_test.sh RUN_PROGRAM KSELFTEST_INSTALL
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
set -eu
[ $# -eq 2 ] || {
	echo "usage: $0 RUN_PROGRAM KSELFTEST_INSTALL" >&2
	exit 2
}
rp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
install=$2
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d /tmp/lsmconf-run-program.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin run_program_test.sh "run-program: "

# A kselftest install of one collection, "coll", with the runner of
# $install and a settings timeout of 2 s.
k=$t/kselftest
mkdir -p "$k/coll"
cp "$install/run_kselftest.sh" "$k/"
cp -R "$install/kselftest" "$k/"
echo "timeout=2" > "$k/coll/settings"
program() {
	printf '#!/bin/sh\n%s\n' "$2" > "$k/coll/$1"
	chmod 755 "$k/coll/$1"
	echo "coll:$1" >> "$k/kselftest-list.txt"
}
program pass 'printf "TAP version 13\n1..1\nok 1 pass\n"'
program fail 'printf "TAP version 13\n1..1\nnot ok 1 fail\n"; exit 1'
program skip 'printf "TAP version 13\n1..0 # SKIP no reason\n"; exit 4'
program noisy 'echo out; echo err >&2; echo "# a diagnostic"; exit 0'
program slow 'echo started; exec sleep 30'
: > "$k/coll/notexec"
echo "coll:notexec" >> "$k/kselftest-list.txt"

# run_rp DIR NAME [LIMIT]: run-program of the install DIR, its output in
# $t/new and its status in $got.
run_rp() {
	set +e
	/bin/sh "$rp" "$1" coll "$2" ${3:+"$3"} > "$t/new" 2>&1
	got=$?
	set -e
}

# same NAME [LIMIT]: run-program and run_kselftest.sh agree on NAME.
same() {
	# Side by side: a timeout case takes its seconds once.
	(cd "$k" && ./run_kselftest.sh -t "coll:$1" ${2:+-o "$2"}) \
		> "$t/old" 2>&1 &
	pid=$!
	run_rp "$k" "$@"
	new=$got
	set +e
	wait "$pid"
	old=$?
	set -e
	# The shell names itself in its own errors: $0.
	sed "s|^$rp:|./run_kselftest.sh:|" "$t/new" > "$t/new.0"
	mv "$t/new.0" "$t/new"
	if [ "$new" -ne "$old" ]; then
		echo "# status $new, run_kselftest.sh $old"
		return 1
	fi
	cmp -s "$t/new" "$t/old" && return 0
	echo "# output differs from run_kselftest.sh's:"
	diff "$t/old" "$t/new" | sed 's/^/#   /' | head -20
	return 1
}
# status WANT NAME [LIMIT]: run-program's status is WANT.
status() {
	want=$1
	shift
	run_rp "$k" "$@"
	[ "$got" -eq "$want" ] && return 0
	echo "# status $got, wanted $want"
	return 1
}

check "a passing program: as run_kselftest.sh" same pass
check "a passing program: status 0" status 0 pass
check "a failing program: as run_kselftest.sh" same fail
check "a failing program: status 1" status 1 fail
check "a skipped program: as run_kselftest.sh" same skip
check "a program's stderr and diagnostics: as run_kselftest.sh" same noisy
check "the settings timeout ends a program: as run_kselftest.sh" same slow
check "-o 1: a shorter limit, as run_kselftest.sh" same slow 1
check "a program that cannot run: as run_kselftest.sh" same notexec
check "a program not installed: as run_kselftest.sh" same missing

# An older install: runner.sh without run_many. run-program hands the
# program to run_kselftest.sh (here a stand-in that says how it was run).
o=$t/old-install
mkdir -p "$o/kselftest" "$o/coll"
echo 'echo "an older runner.sh"' > "$o/kselftest/runner.sh"
printf '#!/bin/sh\necho "run_kselftest.sh $*"\nexit 7\n' \
	> "$o/run_kselftest.sh"
chmod 755 "$o/run_kselftest.sh"
# fallback FIRST NAME [LIMIT]: run_kselftest.sh ran, after output FIRST.
fallback() {
	first=$1
	shift
	run_rp "$o" "$@"
	want="${first:+$first
}run_kselftest.sh -t coll:$1${2:+ -o $2}"
	if [ "$got" -eq 7 ] && [ "$(cat "$t/new")" = "$want" ]; then
		return 0
	fi
	echo "# status $got, output: $(head -c 200 "$t/new")"
	return 1
}
echo "coll:pass" > "$o/kselftest-list.txt"
check "an install without run_many: run_kselftest.sh -t runs the program" \
	fallback "an older runner.sh" pass
check "... with -o LIMIT" fallback "an older runner.sh" pass 3
rm "$o/kselftest-list.txt"
check "an install without kselftest-list.txt: run_kselftest.sh -t" \
	fallback "" pass
echo "coll:pass" > "$o/kselftest-list.txt"
rm "$o/kselftest/runner.sh"
check "an install without runner.sh: run_kselftest.sh -t" fallback "" pass

tap_end
