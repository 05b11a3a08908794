#!/bin/sh
# lsmconf kcidb on the small results directory of
# runner/tests/fixtures/kcidb/run (no boot): the submission passes the
# vendored KCIDB schema, is the same twice, maps what it should, and bad
# results directories are one line and exit 1.
#   kcidb_test.sh LSMCONF
# Prints one line per check (runner/tests/tap.sh) and closes with
# "N passed, N failed, N skipped".
# Each check is a string, quoted here, run by check NAME eval STRING:
# shellcheck disable=SC2016
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LSMCONF" >&2; exit 2; }
lsmconf=$1
here=$(dirname "$0")
fx=$here/fixtures/kcidb/run
schema=$here/../../fixtures/kcidb/kcidb.v5.3.schema.json
t=$(mktemp -d /tmp/lsmconf-kcidb-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=runner/tests/tap.sh
. "$here/tap.sh"
tap_begin kcidb_test.sh "kcidb: "
# One line on stderr, nothing on stdout, exit 1.
refused() {
	if "$lsmconf" kcidb "$@" > "$t/out" 2> "$t/err"; then
		return 1
	fi
	[ "$(wc -l < "$t/err")" -eq 1 ] && [ ! -s "$t/out" ]
}

for n in 1 2; do
	if "$lsmconf" kcidb -o "$t/k$n.json" "$fx" > "$t/run$n" 2>&1; then
		ok "conversion $n exits 0"
	else
		no "conversion $n exits 0: $(cat "$t/run$n")"
	fi
done
if /usr/bin/python3 "$here/kcidb_validate.py" "$schema" "$t/k1.json" > "$t/valid" 2>&1; then
	ok "valid against the KCIDB v5.3 schema: $(cut -d: -f2- "$t/valid")"
else
	no "valid against the KCIDB v5.3 schema: $(cat "$t/valid")"
fi
check "the same document, ids and all, twice" eval 'cmp -s "$t/k1.json" "$t/k2.json"'
# A boot's tests start when it did (kernel.txt's started); a date that
# is not RFC 3339 fails the validation (checked here, not by a module).
check "a boot's tests carry its start_time" \
	eval '[ "$(grep -c "^ *\"start_time\": \"2026-12-04T10:11:12Z\",\?$" "$t/k1.json")" -gt 3 ]'
sed 's/2026-12-04T10:11:12Z/2026-13-04T10:11:12Z/' "$t/k1.json" > "$t/baddate.json"
check "a start_time of month 13 fails the schema validation" \
	eval '! /usr/bin/python3 "$here/kcidb_validate.py" "$schema" "$t/baddate.json" > /dev/null 2>&1'
check "17 tests: 7 PASS, 4 FAIL, 2 SKIP, 4 MISS" \
	eval 'grep -q "17 tests (7 PASS, 4 FAIL, 2 SKIP, 4 MISS, 0 ERROR, 0 DONE), 4 issues, 2 incidents" "$t/run1"'
# A value of the pretty-printed document: "KEY": "VALUE" on its line.
has() { grep -q "^ *\"$1\": \"$2\",\?$" "$t/k1.json"; }
check "a case path under kselftest.apparmor." \
	eval 'has path kselftest.apparmor.exec_test.exec.src_onexec_other.decisions'
check "a lost case is MISS, named from its RUN line" \
	eval 'has path kselftest.apparmor.features_test.profile.abi_5_0.af_unix && has path kselftest.apparmor.features_test.lost_3'
check "lsmconf's own checks under lsm." eval 'has path lsm.apparmor.decisions'
check "the comparison is lsm.compare, its unexplained case named" \
	eval 'has path lsm.compare && grep -q "client_after_socket/new.client.write: EACCES -> -" "$t/k1.json"'
check "the errno of a decision in misc" eval 'has errno EACCES'
check "a program's duration from its guest time" eval 'grep -q "^ *\"duration\": 2.32,$" "$t/k1.json"'
check "a known bug is an issue" eval 'has issue_id lsmconf:apparmor-unix-file-perm-null-peer'
check "a crashed case carries the kernel's report" \
	eval 'grep -q "\"log_excerpt\": \"boot 1 ended in test unix_lifecycle_test, case lifecycle.dgram_change.confined_write\\\\n" "$t/k1.json"'
sum=$(sha256sum "$fx/patches/0001-apparmor-say-why.patch" | cut -d" " -f1)
# shellcheck disable=SC2034 # read by check()
want=$(printf '%s\n' "$sum" | sha256sum | cut -d" " -f1)
check "patchset_hash: SHA-256 of the patches' SHA-256 lines" \
	eval 'has patchset_hash "$want"'
check "no patches: an empty patchset_hash" eval 'has patchset_hash ""'
check "--origin prefixes every id" \
	eval '"$lsmconf" kcidb --origin my_ci -o "$t/o.json" "$fx" > /dev/null && ! grep -q "\"lsmconf:" "$t/o.json" && grep -q "\"my_ci:test-" "$t/o.json"'
# A test id of a document, the N-th.
test_id() { grep -o "\"lsmconf:test-[0-9a-f]*\"" "$1" | sed -n "${2}p"; }
check "--run: the same builds, other tests (another run of the same kernel)" \
	eval '"$lsmconf" kcidb --run pipeline-7 -o "$t/r.json" "$fx" > /dev/null && [ "$(grep -o "\"lsmconf:build-[0-9a-f]*\"" "$t/r.json" | sort -u)" = "$(grep -o "\"lsmconf:build-[0-9a-f]*\"" "$t/k1.json" | sort -u)" ] && ! grep -q "$(test_id "$t/k1.json" 1)" "$t/r.json"'
check "the default output is RESULTS/kcidb.json" \
	eval 'cp -R "$fx" "$t/copy" && "$lsmconf" kcidb "$t/copy" > /dev/null && cmp -s "$t/copy/kcidb.json" "$t/k1.json"'

check "a missing RESULTS: one line, exit 1" eval 'refused "$t/none"'
mkdir "$t/empty"
check "not lsmconf's results: one line, exit 1" eval 'refused "$t/empty"'
check "an origin KCIDB refuses: one line, exit 1" eval 'refused --origin Bad-CI "$fx"'
cp -R "$fx" "$t/cut"
head -c 200 "$fx/debian-sid-apparmor/ktap.txt" > "$t/cut/debian-sid-apparmor/ktap.txt"
check "a cut ktap.txt: one line, exit 1" eval 'refused -o "$t/x.json" "$t/cut"'
cp -R "$fx" "$t/cutrec"
head -c 180 "$fx/debian-sid-apparmor/records.tsv" > "$t/cutrec/debian-sid-apparmor/records.tsv"
check "cut records: one line, exit 1" eval 'refused -o "$t/x.json" "$t/cutrec"'
check "  ... naming the file" eval 'grep -q "records.tsv" "$t/err"'
cp -R "$fx" "$t/nok"
rm "$t/nok/kernel-1-apparmor/ktap.txt"
check "a boot without ktap.txt: one line, exit 1" eval 'refused -o "$t/x.json" "$t/nok"'

tap_end
