# The subject of audit_ops_test.c's policy operations: loaded, replaced
# (by a second blob, @RULES@ differing) and removed.
abi <abi/@ABI@>,

profile @NAME@ {
  /** rwlkm,
  @RULES@
}
