#!/bin/sh
# Sourced by every shell test of make check: one way to say what a check
# did, one line each (TAP):
#   ok - NAME                  passed
#   not ok - NAME              failed
#   ok - NAME # SKIP REASON    did not run; counted as skipped, never passed
# A script starts with tap_begin and closes with tap_end, whose line is
# "SCRIPT: N passed, N failed, N skipped (N s)". Under make check
# (LSMCONF_CHECK_COUNTS names a file) each skip and each script's totals
# are appended to that file; tap_total sums them at the end.

# tap_begin SCRIPT [PREFIX]: counts from zero; PREFIX starts every name.
tap_begin() {
	tap_script=$1
	tap_prefix=${2:-}
	tap_pass=0
	tap_fail=0
	tap_skip=0
	tap_block=
	tap_start=$(date +%s)
	tap_last=$tap_start
}

# tap_line TEXT: TEXT on one line (a name may hold a command's output).
tap_line() { printf '%s\n' "$1" | tr '\t\n' '  ' | sed 's/ *$//'; }

# After a check that ended a stretch of 30 s or more, the time since the
# start, as a comment: where a long script spends its time.
tap_elapsed() {
	tap_now=$(date +%s)
	if [ $((tap_now - tap_last)) -ge 30 ]; then
		echo "# +$((tap_now - tap_start)) s (this stretch $((tap_now - tap_last)) s)"
	fi
	tap_last=$tap_now
}

# tap_record ok|no|skip NAME [REASON]: NAME as given (no prefix added).
tap_record() {
	tap_name=$(tap_line "$2")
	case $1 in
	ok)
		tap_pass=$((tap_pass + 1))
		printf 'ok - %s\n' "$tap_name"
		;;
	no)
		tap_fail=$((tap_fail + 1))
		printf 'not ok - %s\n' "$tap_name"
		;;
	skip)
		tap_why=$(tap_line "${3:-no reason given}")
		tap_skip=$((tap_skip + 1))
		printf 'ok - %s # SKIP %s\n' "$tap_name" "$tap_why"
		if [ -n "${LSMCONF_CHECK_COUNTS:-}" ]; then
			printf 'skip\t%s\t%s\t%s\n' "$tap_script" "$tap_name" "$tap_why" \
				>> "$LSMCONF_CHECK_COUNTS"
		fi
		;;
	esac
	tap_elapsed
}

# ok NAME, no NAME, skip NAME REASON. Inside a skip block ok and no are
# skips too: the check did not run.
ok() {
	if [ -n "$tap_block" ]; then
		tap_record skip "$tap_prefix$1" "$tap_block"
	else
		tap_record ok "$tap_prefix$1"
	fi
}
no() {
	if [ -n "$tap_block" ]; then
		tap_record skip "$tap_prefix$1" "$tap_block"
	else
		tap_record no "$tap_prefix$1"
	fi
}
skip() { tap_record skip "$tap_prefix$1" "${2:-}"; }

# check NAME CMD...: CMD must succeed (not run inside a skip block).
check() {
	tap_check=$1
	shift
	if [ -n "$tap_block" ]; then
		skip "$tap_check" "$tap_block"
	elif "$@"; then
		ok "$tap_check"
	else
		no "$tap_check"
	fi
}

# skip_block REASON ... end_skip_block: the checks between do not run.
# Every ok, no and check there prints its skip line with REASON, so the
# count of what did not run is printed; the commands that feed the
# checks go through skippable, which runs nothing in the block. The
# block's stderr is dropped: names computed from outputs that were never
# written complain of missing files.
skip_block() {
	[ -n "$tap_block" ] || exec 9>&2 2> /dev/null
	tap_block=${1:-no reason given}
}
end_skip_block() {
	if [ -n "$tap_block" ]; then
		tap_block=
		exec 2>&9 9>&-
	fi
}
# skippable CMD...: CMD, or nothing and status 1 inside a skip block.
skippable() {
	[ -z "$tap_block" ] || return 1
	"$@"
}

# tap_relay FILE: the check lines another script printed to FILE (run
# with LSMCONF_CHECK_COUNTS unset), counted here as they were there;
# its comments shown.
tap_relay() {
	while IFS= read -r tap_l; do
		case $tap_l in
		"ok - "*" # SKIP "*)
			tap_l=${tap_l#ok - }
			tap_record skip "${tap_l%% \# SKIP *}" "${tap_l#* \# SKIP }"
			;;
		"ok - "*) tap_record ok "${tap_l#ok - }" ;;
		"not ok - "*) tap_record no "${tap_l#not ok - }" ;;
		"#"*) printf '%s\n' "$tap_l" ;;
		esac
	done < "$1"
}

# tap_end: the closing line; under make check the totals go to the
# counts file. Fails when a check failed.
tap_end() {
	end_skip_block
	echo "$tap_script: $tap_pass passed, $tap_fail failed, $tap_skip skipped ($(($(date +%s) - tap_start)) s)"
	if [ -n "${LSMCONF_CHECK_COUNTS:-}" ]; then
		printf 'total\t%s\t%d\t%d\t%d\n' "$tap_script" "$tap_pass" "$tap_fail" \
			"$tap_skip" >> "$LSMCONF_CHECK_COUNTS"
	fi
	[ "$tap_fail" -eq 0 ]
}

# tap_check_suites TEST...: Check (libcheck) unit tests, each run and
# shown; their "Checks: N, Failures: N, Errors: N" lines counted as one
# script, "Check suites" (no skips: Check has none). A test that exits
# non-zero with no failure counted (it died first) is one failure.
tap_check_suites() {
	tap_begin "Check suites"
	tap_out=$(mktemp /tmp/lsmconf-check-suite.XXXXXX) || return 1
	for tap_t; do
		"$tap_t" > "$tap_out" 2>&1
		tap_rc=$?
		cat "$tap_out"
		tap_n=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\)$/\1 \2 \3/p' "$tap_out" | tail -1)
		tap_f=0
		if [ -n "$tap_n" ]; then
			tap_c=${tap_n%% *}
			tap_fe=${tap_n#* }
			tap_f=$((${tap_fe% *} + ${tap_fe#* }))
			tap_pass=$((tap_pass + tap_c - tap_f))
			tap_fail=$((tap_fail + tap_f))
		fi
		if [ "$tap_rc" -ne 0 ] && [ "$tap_f" -eq 0 ]; then
			no "$tap_t exited with status $tap_rc, no failed check counted"
		fi
	done
	rm -f "$tap_out"
	tap_end
}

# tap_total FILE: make check's closing line over the counts in FILE,
# then each skip on its own line. Fails when a check failed, and under
# CI (CI set, as .ci/run does) when any check skipped: a CI run proves
# only what ran.
tap_total() {
	# shellcheck disable=SC2016 # awk fields, not shell variables
	awk -F '\t' -v ci="${CI:-}" '
		$1 == "total" {
			if (!($2 in p)) order[++n] = $2
			p[$2] += $3; f[$2] += $4; s[$2] += $5
			P += $3; F += $4; S += $5
		}
		$1 == "skip" { why[++k] = $2 ": " $3 ": " $4 }
		END {
			per = ""
			for (i = 1; i <= n; i++)
				per = per (i > 1 ? ", " : "") order[i] " " p[order[i]] "/" f[order[i]] "/" s[order[i]]
			if (!n) per = "no script reported"
			printf "make check: %d passed, %d failed, %d skipped (per script, passed/failed/skipped: %s; lint and the doc check of make docs pass or fail, not counted)\n", P, F, S, per
			for (i = 1; i <= k; i++)
				print "make check: skipped: " why[i]
			if (k > S) S = k
			if (ci != "" && S > 0)
				print "make check: failed: CI is set and " S " skipped (a CI run skips nothing)"
			exit (F > 0 || !n || (ci != "" && S > 0))
		}' "$1"
}
