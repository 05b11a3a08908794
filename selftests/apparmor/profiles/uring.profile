# uring_test: the profiles of the io_uring cases, loaded once. Every
# profile may use any file (the child reports over a pipe); only the
# io_uring rules differ. ABI 5.0 has the io_uring class: a profile
# without an io_uring rule refuses an SQPOLL ring and a request run with
# another task's credentials.
abi <abi/@ABI@>,

# No io_uring rule. Named as the file's tag, so that aa_policy_share()
# finds the file loaded.
profile @NAME@ {
  file,
}

# Also the first of the stack: change_profile lets it stack another.
profile @NAME@_all {
  file,
  change_profile,
  io_uring,
}

profile @NAME@_sqpoll {
  file,
  io_uring sqpoll,
}

profile @NAME@_override {
  file,
  io_uring override_creds,
}

# The personality's label is unconfined (uring_test's TARGET).
profile @NAME@_override_target {
  file,
  io_uring override_creds label=unconfined,
}

profile @NAME@_override_other {
  file,
  io_uring override_creds label=@NAME@_no_such_label,
}

profile @NAME@_deny {
  file,
  io_uring,
  deny io_uring sqpoll,
}

profile @NAME@_deny_override {
  file,
  io_uring,
  deny io_uring override_creds,
}

profile @NAME@_complain flags=(complain) {
  file,
}

# The marker of the audit records: no rule, so its read of / is refused
# and logged once the case's records are in the log.
profile @NAME@_marker {
}
