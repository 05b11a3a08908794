# rlimit_test: one profile of an rlimit case. The test writes its rlimit
# and capability rules (rl_profiles in rlimit_test.c); file lets the
# confined child write its results to its pipe.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  @RULES@
}
