# capability_test: the profiles of the capability cases, loaded once.
# Every profile may use any file (the child reports over a pipe and
# fchown()s a file of its own); only the capability rules differ.
abi <abi/@ABI@>,

# No capability rule. Named as the file's tag, so that aa_policy_share()
# finds the file loaded.
profile @NAME@ {
  file,
}

profile @NAME@_sys_admin {
  file,
  capability sys_admin,
}

profile @NAME@_all {
  file,
  change_profile,
  capability,
}

profile @NAME@_deny_chown {
  file,
  capability,
  deny capability chown,
}

profile @NAME@_audit_nice {
  file,
  audit capability sys_nice,
}

profile @NAME@_complain flags=(complain) {
  file,
}

# The second of the stack: a copy of @NAME@_sys_admin, so that no
# profile refuses one capability twice in a run (6.1 logs a profile's
# refusal of a capability once, audit_caps()' cache).
profile @NAME@_stack_sys_admin {
  file,
  capability sys_admin,
}

# The marker of the audit records: no rule, so its read of / is refused
# and logged once the case's records are in the log.
profile @NAME@_marker {
}
