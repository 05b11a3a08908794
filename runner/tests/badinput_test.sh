#!/bin/sh
# Malformed inputs against lsmconf, without a kernel or a boot (issue 37):
# saved runs, stores, known bugs lists, specs, mutants, series and kcidb
# inputs that are cut, garbled, binary, huge, FIFOs, devices,
# directories, symlink loops, empty... each built in a temporary
# directory from runner/tests/fixtures/kcidb/run. Each must end under
# timeout(1) (no hang) with a non-zero exit status, exactly one line on
# stderr and nothing on stdout (no report, no verdict).
#   badinput_test.sh [--table] LSMCONF
# --table: a Markdown table of every run (input, command, exit status,
# the line on stderr) instead of ok/not ok lines; the exit status is the
# same.
set -eu
table=
if [ "${1:-}" = --table ]; then
	table=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--table] LSMCONF" >&2; exit 2; }
lsmconf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fx=$here/fixtures/kcidb/run
t=$(mktemp -d /tmp/lsmconf-badinput.XXXXXX)
trap 'rm -rf "$t"' EXIT
# Nothing read into (or fetched for) the shared cache.
LSMCONF_CACHE=$t/cache
export LSMCONF_CACHE
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin badinput_test.sh "badinput: "
# Bound of one run: every refusal comes before any fetch or boot.
limit=20

if [ -n "$table" ]; then
	echo "| # | input | command | exit | stderr |"
	echo "|---|---|---|---|---|"
fi

# The words of a command as typed ('' for an empty one).
words() {
	for w; do
		[ -n "$w" ] || w="''"
		printf '%s%s' "${sp:-}" "$w"
		sp=' '
	done
	sp=
}

# A cell of the table: the temporary directory as T, no '|'.
cell() {
	printf '%s' "$1" | sed -e "s#$t#T#g" -e "s#$root/##g" -e 's/|/\\|/g' \
		-e 's/</\&lt;/g' -e 's/>/\&gt;/g'
}

# try WHAT CMD...: CMD (lsmconf's arguments) on the input WHAT.
try() {
	what=$1
	shift
	( cd "$t" && exec timeout -k 5 "$limit" "$lsmconf" "$@" ) \
		> "$t/out" 2> "$t/err" < /dev/null && rc=0 || rc=$?
	lines=$(wc -l < "$t/err")
	first=$(head -n 1 "$t/err")
	why=
	if [ "$rc" -eq 0 ]; then
		why="exit 0"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="hung (timeout after $limit s)"
	elif [ "$lines" -ne 1 ]; then
		why="$lines lines on stderr"
	elif [ -s "$t/out" ]; then
		# A report, a plan, a verdict: nothing of it is due.
		why="output on stdout: $(head -n 1 "$t/out")"
	elif [ "${first#lsmconf: }" = "$first" ]; then
		why="not lsmconf's message"
	fi
	n=$((tap_pass + tap_fail + 1))
	if [ -n "$table" ]; then
		if [ -z "$why" ]; then
			tap_pass=$((tap_pass + 1))
		else
			tap_fail=$((tap_fail + 1))
		fi
		cmd=$(words "$@")
		# shellcheck disable=SC2016 # backquotes of Markdown
		printf '| %d | %s | `lsmconf %s` | %d | %s%s |\n' "$n" "$what" \
			"$(cell "$cmd")" "$rc" "$(cell "$first")" \
			"${why:+ (FAILED: $why)}"
	elif [ -z "$why" ]; then
		ok "$what"
	else
		no "$what: $why: $(cell "$first")"
	fi
}

# A copy of the fixture run, its first boot in $t/NAME/$a.
a=debian-sid-apparmor
run() {
	rm -rf "${t:?}/$1"
	cp -R "$fx" "$t/$1"
}
# Replaces file REL of run NAME with what is on stdin.
put() {
	cat > "$t/$1/$2"
}
hdr='id	abi	subject	object	class	detail	op	depends	expected	observed'
rec() {
	printf '%s\t5.0\tsubj\tobj\tdgram\t-\twrite\t-\tallow\t%s\n' "$1" "$2"
}

# --- records.tsv of a saved run
run nul
printf '%s\nx_test/a.b/c\t5.0\ts\to\tc\td\top\t-\tallow\tal\000low\n' "$hdr" |
	put nul "$a/records.tsv"
try "records.tsv with a NUL byte" compare --saved nul
run fifo
rm "$t/fifo/$a/records.tsv"
mkfifo "$t/fifo/$a/records.tsv"
try "records.tsv a FIFO" compare --saved fifo
run rdir
rm "$t/rdir/$a/records.tsv"
mkdir "$t/rdir/$a/records.tsv"
try "records.tsv a directory" compare --saved rdir
run hdr
{ printf 'id\tfoo\n'; rec x_test/a.b/c allow; } | put hdr "$a/records.tsv"
try "records.tsv header id TAB foo" compare --saved hdr
run cols
{ echo "$hdr"; rec x_test/a.b/c allow; printf 'x_test/a.b/d\tallow\n'; } |
	put cols "$a/records.tsv"
try "records.tsv line of 2 columns" compare --saved cols
run dup
{ echo "$hdr"; rec x_test/a.b/c allow; rec x_test/a.b/c EACCES; } |
	put dup "$a/records.tsv"
try "records.tsv id twice, two outcomes" compare --saved dup
run crlf
sed 's/$/\r/' "$fx/$a/records.tsv" | put crlf "$a/records.tsv"
try "records.tsv with CRLF lines" compare --saved crlf
run junk
awk 'BEGIN { for (i = 0; i < 4096; i++) printf "%c", (i * 37 + 11) % 256 }' |
	put junk "$a/records.tsv"
try "records.tsv binary junk" compare --saved junk
run huge
{ echo "$hdr"; awk 'BEGIN { for (i = 0; i < 65536; i++) printf "xxxxxxxxxxxxxxxx\t"; print "" }'; } |
	put huge "$a/records.tsv"
try "records.tsv a 1 MB line" compare --saved huge
run cut
{ echo "$hdr"; printf 'x_test/a.b/c\t5.0\tsubj'; } | put cut "$a/records.tsv"
try "records.tsv cut short" compare --saved cut
run rempty
: | put rempty "$a/records.tsv"
try "records.tsv empty" compare --saved rempty
run field
{ echo "$hdr"; printf 'x_test/a.b/c\t\ts\to\tc\td\top\t-\tallow\tallow\n'; } |
	put field "$a/records.tsv"
try "records.tsv an empty field" compare --saved field

# --- kernel.txt, ktap.txt and the other files of a saved boot
run ktcut
head -c 90 "$fx/$a/kernel.txt" | put ktcut "$a/kernel.txt"
try "kernel.txt truncated mid-line" compare --saved ktcut
run ktlines
head -n 3 "$fx/$a/kernel.txt" | put ktlines "$a/kernel.txt"
try "kernel.txt truncated after 3 lines" compare --saved ktlines
run ktjunk
printf 'spec debian:sid\n\033[0m\377\376\nsuite\n' | put ktjunk "$a/kernel.txt"
try "kernel.txt garbled" compare --saved ktjunk
run ktempty
: | put ktempty "$a/kernel.txt"
try "kernel.txt empty" compare --saved ktempty
run ktspec
grep -v '^spec' "$fx/$a/kernel.txt" | put ktspec "$a/kernel.txt"
try "kernel.txt without spec" compare --saved ktspec
run ktverdict
sed 's/^verdict\tPASS$/verdict\tMAYBE/' "$fx/$a/kernel.txt" | put ktverdict "$a/kernel.txt"
try "kernel.txt verdict MAYBE" compare --saved ktverdict
run ktcrlf
sed 's/$/\r/' "$fx/$a/kernel.txt" | put ktcrlf "$a/kernel.txt"
try "kernel.txt with CRLF lines" compare --saved ktcrlf
run ktdir
rm "$t/ktdir/$a/kernel.txt"
mkdir "$t/ktdir/$a/kernel.txt"
try "kernel.txt a directory" compare --saved ktdir
run kthuge
{ cat "$fx/$a/kernel.txt"; awk 'BEGIN { for (i = 0; i < 100000; i++) print "x" i "\t" i }'; } |
	put kthuge "$a/kernel.txt"
try "kernel.txt over 1 MiB" compare --saved kthuge
run ktmany
{ awk 'BEGIN { for (i = 0; i < 60000; i++) print "x" i "\t" i }'; cat "$fx/$a/kernel.txt"; echo "x7	again"; } |
	put ktmany "$a/kernel.txt"
try "kernel.txt of 60,000 keys, one twice" compare --saved ktmany
run kttwice
{ cat "$fx/$a/kernel.txt"; printf 'spec\tdebian:trixie\n'; } | put kttwice "$a/kernel.txt"
try "kernel.txt spec twice" compare --saved kttwice
run ktloop
rm "$t/ktloop/$a/kernel.txt"
ln -s kernel.txt "$t/ktloop/$a/kernel.txt"
try "kernel.txt a symlink loop" compare --saved ktloop
run started
sed 's/^started\t.*/started\tyesterday/' "$fx/$a/kernel.txt" | put started "$a/kernel.txt"
try "kernel.txt started yesterday" compare --saved started
run noktap
rm "$t/noktap/$a/ktap.txt"
try "ktap.txt missing" compare --saved noktap
run empty
grep -v '^verdict' "$fx/$a/kernel.txt" | put empty "$a/kernel.txt"
: | put empty "$a/ktap.txt"
try "no verdict and an empty ktap.txt" compare --saved empty
run kfifo
rm "$t/kfifo/$a/known.tsv"
mkfifo "$t/kfifo/$a/known.tsv"
try "known.tsv a FIFO" compare --saved kfifo
run knul
printf 'x_test/a.b/c\t\000bug\n' | put knul "$a/known.tsv"
try "known.tsv with a NUL byte" compare --saved knul
run kcdir
rm "$t/kcdir/$a/known-crashes.tsv"
mkdir "$t/kcdir/$a/known-crashes.tsv"
try "known-crashes.tsv a directory" compare --saved kcdir
run ffifo
mkdir -p "$t/ffifo/$a/guest"
mkfifo "$t/ffifo/$a/guest/features.tsv"
try "guest/features.tsv a FIFO" compare --saved ffifo
run ctsv
echo garbage | put ctsv compare.tsv
try "compare.tsv not compare's" compare --saved ctsv

# --- the saved directory itself
try "a directory that does not exist" compare --saved nosuch
echo text > "$t/afile"
try "a file, not a directory" compare --saved afile
mkdir "$t/emptydir"
try "an empty directory" compare --saved emptydir
ln -s loop "$t/loop"
try "a symlink loop" compare --saved loop

# --- options
try "--lsm apparmor,nosuch with --saved" compare --saved --lsm apparmor,nosuch "$fx"
try "--lsm empty" compare --saved --lsm "" "$fx"
try "--known-bugs /dev/zero" compare --saved --known-bugs /dev/zero "$fx"
mkfifo "$t/kb.fifo"
try "--known-bugs a FIFO" compare --saved --known-bugs "$t/kb.fifo" "$fx"
try "--known-bugs a directory" compare --saved --known-bugs "$t" "$fx"
printf 'bug: x\ncases: exec_test/*\nnonsense line\n' > "$t/kb.bad"
try "--known-bugs not a list" compare --saved --known-bugs "$t/kb.bad" "$fx"
try "an option compare does not take" compare --saved --points socketpair:none "$fx"
try "an option without its value" plan --store "$t/s0" compare --memory

# --- kcidb
run kstart
sed 's/^started\t.*/started\tyesterday/' "$fx/$a/kernel.txt" | put kstart "$a/kernel.txt"
try "kcidb: started yesterday" kcidb -o "$t/k.json" kstart
run knulrec
cp "$t/nul/$a/records.tsv" "$t/knulrec/$a/records.tsv"
try "kcidb: records.tsv with a NUL byte" kcidb -o "$t/k.json" knulrec
try "kcidb: a FIFO for RESULTS" kcidb -o "$t/k.json" "$t/kb.fifo"

# --- specs, planned as kernel refuses them
try "a patch that does not exist" plan --store "$t/s1" compare debian:sid build:debian-source:7.2+/nonexistent.patch
try "file: not a bzImage" plan --store "$t/s2" compare debian:sid file:/etc/hostname
try "file: a device" plan --store "$t/s3" compare debian:sid file:/dev/zero
printf 'not a debian package\n' > "$t/junk.deb"
try "deb: not a package" plan --store "$t/s4" compare debian:sid "deb:$t/junk.deb"
try "debian-source: not X.Y" plan --store "$t/s5" compare debian:sid build:debian-source:seven
try "build: not a kernel tree" plan --store "$t/s6" compare debian:sid "build:$t"
try "an unknown spec kind" plan --store "$t/s7" compare debian:sid nfs:foo
printf 'x\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\nzzz\n' > "$t/garbage.patch"
try "build: a patch of garbage hunks" plan --store "$t/s8" compare debian:sid "build:debian-source:7.2+$t/garbage.patch"

# --- mutants
mkdir "$t/m1" "$t/m2" "$t/m3"
printf 'A mutant with no diff\n\nJust words.\n' > "$t/m1/01-nodiff.patch"
try "a mutant with no diff" plan --store "$t/s9" mutate --mutants "$t/m1"
cp "$t/garbage.patch" "$t/m2/01-garbage.patch"
try "a mutant of garbage hunks" plan --store "$t/s10" mutate --mutants "$t/m2"
mkfifo "$t/m3/01-fifo.patch"
try "a mutant a FIFO" plan --store "$t/s11" mutate --mutants "$t/m3"

# --- series
series=$root/fixtures/series/decision-and-cost
mkdir "$t/gaps" "$t/nonum" "$t/sbad"
cp "$series"/0001-*.patch "$series"/0003-*.patch "$series"/0006-*.patch "$t/gaps"
try "series numbered 0001, 0003, 0006" plan --store "$t/s12" series debian-source:7.2 "$t/gaps"
cp "$series"/0001-*.patch "$t/nonum/fix.patch"
try "series patch without a number" plan --store "$t/s13" series debian-source:7.2 "$t/nonum"
{ sed -n '1,/^---$/p' "$series"/0001-*.patch; cat "$t/garbage.patch"; } > "$t/sbad/0001-x.patch"
try "series patch of garbage hunks" plan --store "$t/s14" series debian-source:7.2 "$t/sbad"
printf 'From x\n\000\n' > "$t/nul.mbox"
try "series mbox with a NUL byte" plan --store "$t/s15" series debian-source:7.2 "$t/nul.mbox"
echo "just text" > "$t/text.mbox"
try "series mbox that is no mbox" plan --store "$t/s16" series debian-source:7.2 "$t/text.mbox"
{
	printf 'From 0 Mon Sep 17 00:00:00 2001\nFrom: T <t@example.org>\nSubject: [PATCH 1/2] a\n\n'
	sed -n '/^---$/,$p' "$series"/0001-*.patch
	printf 'From 0 Mon Sep 17 00:00:00 2001\nFrom: T <t@example.org>\nSubject: Re: [PATCH 1/2] a\n\nLooks good.\n\n'
} > "$t/reply.mbox"
try "series mbox with a reply, no diff" plan --store "$t/s17" series debian-source:7.2 "$t/reply.mbox"

# --- stores
store() {
	rm -rf "${t:?}/$1"
	( cd "$t" && "$lsmconf" plan --store "$1" compare debian:sid debian:trixie > /dev/null )
}
store st1
rm "$t/st1/plan.tsv"
mkfifo "$t/st1/plan.tsv"
try "store plan.tsv a FIFO" plan --store st1 --steps
store st2
printf '0123456789abcdef boot fedcba9876543210 -- a unit whose dependency is not planned\n' >> "$t/st2/plan.tsv"
try "store plan.tsv dependency not planned" plan --store st2 --steps
store st3
printf 'garbage' > "$t/st3/command"
try "store command garbled" plan --store st3 --steps
store st4
printf '%s\000' "$(head -n 1 "$t/st4/plan.tsv")" > "$t/st4/plan.tsv"
try "store plan.tsv with a NUL byte" plan --store st4 --steps

# --- table
try "table: records.tsv with a NUL byte" table nul/$a

if [ -z "$table" ]; then
	tap_end
fi
[ "$tap_fail" -eq 0 ]
