#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by unix_peer_variants.sh and inet_variants.sh: the one way a
# variant table entry (a CELL()) is written.

# cell A B C D E: the variant A__B__C__D__E holding those five values,
# its name on the first line and its values on the second, indented by a
# tab, so that no line passes checkpatch's 100 columns; CELL()
# (static_assert of variants.h's CELL_IS()) fails the build when a name is
# not its values.
cell() {
	printf 'CELL(%s__%s__%s__%s__%s,\n\t%s, %s, %s, %s, %s);\n' \
		"$1" "$2" "$3" "$4" "$5" "$1" "$2" "$3" "$4" "$5"
}
