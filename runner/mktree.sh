#!/bin/sh
# Lays out a kernel-tree skeleton with lsmconf's tests in it:
#   mktree.sh KSRC DEST
# KSRC is a kernel tree (or the skeleton lsmconf extracted from Debian's
# linux-source); DEST gets just what the selftests build needs, plus
# lsmconf's selftests/apparmor, selftests/selinux and the headers they
# share (selftests/lsmconf), copied as they are into
# tools/testing/selftests: each test directory holds its own profiles or
# policy, nothing else is added.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 KSRC DEST" >&2; exit 2; }
src=$1
dest=$2
top=$(cd "$(dirname "$0")/.." && pwd)
st=tools/testing/selftests

[ -r "$src/$st/lib.mk" ] || { echo "mktree: $src has no $st/lib.mk" >&2; exit 1; }
mkdir -p "$dest/$st" "$dest/scripts"
cp "$src/scripts/subarch.include" "$dest/scripts/"
cp "$src/$st/Makefile" "$src/$st/lib.mk" "$dest/$st/"
cp "$src/$st/"*.h "$src/$st/"*.sh "$dest/$st/"
cp -R "$src/$st/kselftest" "$dest/$st/"
cp -R "$top/selftests/lsmconf" "$top/selftests/apparmor" \
	"$top/selftests/selinux" "$dest/$st/"
