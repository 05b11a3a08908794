# mount_test: one profile of a mount case, or its marker (no rule). The
# test writes the rules: file (the confined child writes its results to
# its pipe), then its mount, remount, umount and capability rules
# (mount_rules in mount_test.c).
abi <abi/@ABI@>,

profile @NAME@ {
  @RULES@
}
