# What AppArmor logs for a signal, a ptrace and an exec, under the audit and deny
# qualifiers and complain mode (audit_ops_test.c loads the file once).
# Every profile may read, write, lock, link and map any file, never exec
# one unless a rule says so.
abi <abi/@ABI@>,

# The marker: one audited signal, after the case's operation. Named as
# the file's tag, so that aa_policy_share() finds the file loaded.
profile @NAME@ {
  /** rwlkm,
  audit signal (send),
}

# No signal, ptrace or change_profile rule, no x rule: denied and logged.
profile @NAME@_enforce {
  /** rwlkm,
}

profile @NAME@_audit_deny {
  /** rwlkm,
  audit deny signal (send),
  audit deny ptrace (trace),
  audit deny /bin/busybox x,
}

profile @NAME@_deny {
  /** rwlkm,
  deny signal (send),
  deny ptrace (trace),
  deny /bin/busybox x,
}

profile @NAME@_audit {
  /** rwlkm,
  audit signal (send),
  audit ptrace (trace),
  audit /bin/busybox ix,
}

profile @NAME@_complain flags=(complain) {
  /** rwlkm,
}
