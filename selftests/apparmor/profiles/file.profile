# file_test: one profile of a file case. The test writes its file rules
# (file_profiles in file_test.c); there is no "file," rule, so every path
# the confined child touches is decided by them. It reports over a pipe,
# which AppArmor does not mediate by path.
abi <abi/@ABI@>,

profile @NAME@ {
  @RULES@
}
