#!/bin/sh
# The runner's layering rule (docs/runner.md, "Layout"), checked:
# - a file of one layer includes another layer's facade only
#   ("provision/provision.h"), never its other headers;
# - includes point down: a layer includes only the layers below it;
# - only the command line dies: die() is called in runner/cli/ alone
#   (below it, errors are returned; oom() and bug() end the program for
#   want of memory and for lsmconf's own broken invariants), but in
#   lib/util.c, which defines it, and lib/cache.c, whose cache directory
#   failing is said once, before any boot (its comment says why).
# Usage: layers.sh [RUNNER_DIR]; one line per breach, exit 1 if any.
set -u
root="${1:-runner}"
[ -d "$root" ] || { echo "layers.sh: no such directory: $root" >&2; exit 1; }

# What each layer may include, besides itself.
below() {
	case "$1" in
	lib) echo "" ;;
	provision) echo "lib" ;;
	vm) echo "provision lib" ;;
	results) echo "lib" ;;
	analysis) echo "lib" ;;
	session) echo "vm provision results lib" ;;
	work) echo "session analysis vm provision results lib" ;;
	cli) echo "work session analysis vm provision results lib" ;;
	esac
}

layers="lib provision vm results analysis session work cli"
bad=0
for layer in $layers; do
	[ -d "$root/$layer" ] || continue
	allowed=$(below "$layer")
	for f in "$root/$layer"/*.c "$root/$layer"/*.h; do
		[ -f "$f" ] || continue
		incs=$(sed -n 's/^#include "\([a-z_]*\)\/\([a-z_]*\)\.h".*/\1 \2/p' "$f")
		# Each "DIR HEADER" pair on a line of its own.
		while read -r dir hdr; do
			[ -n "$dir" ] || continue
			[ "$dir" = "$layer" ] && continue
			case " $allowed " in
			*" $dir "*) ;;
			*)
				case " $layers " in
				*" $dir "*)
					echo "$f: includes $dir/$hdr.h: $layer may include only ${allowed:-no other layer}"
					bad=1
					;;
				esac
				continue
				;;
			esac
			if [ "$hdr" != "$dir" ]; then
				echo "$f: includes $dir/$hdr.h, not the facade $dir/$dir.h"
				bad=1
			fi
		done <<EOF
$incs
EOF
		[ "$layer" = cli ] && continue
		case "$f" in
		*/lib/util.c | */lib/cache.c | *.h) continue ;;
		esac
		grep -n '\bdie(' "$f" | while IFS=: read -r line _; do
			echo "$f:$line: die() below the command line (return an error)"
		done
		grep -q '\bdie(' "$f" && bad=1
	done
done
exit "$bad"
