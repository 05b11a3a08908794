# mount_test: one profile of a mount case. The test writes its mount,
# remount, umount and capability rules (mount_rules in mount_test.c);
# file lets the confined child write its results to its pipe.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  @RULES@
}
