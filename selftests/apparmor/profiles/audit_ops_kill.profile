# Kill mode (audit_ops_test.c): no signal, ptrace or change_profile
# rule, no x rule. Its own file,
# so that a parser without the mode fails this one only.
abi <abi/@ABI@>,

profile @NAME@ flags=(kill) {
  /** rwlkm,
}
