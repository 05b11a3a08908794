# userns_test: the profiles of the user namespace cases, loaded once.
# Every profile may use any file (the child reports over a pipe); only
# the userns rules differ. ABI 5.0 has the namespaces class: a profile
# without a userns rule refuses to create one.
abi <abi/@ABI@>,

# No userns rule. Named as the file's tag, so that aa_policy_share()
# finds the file loaded.
profile @NAME@ {
  file,
}

# Also the first of the stacks: change_profile lets it stack another.
profile @NAME@_userns {
  file,
  change_profile,
  userns,
}

profile @NAME@_create {
  file,
  userns create,
}

profile @NAME@_deny {
  file,
  userns,
  deny userns create,
}

profile @NAME@_complain flags=(complain) {
  file,
}

# The marker of the audit records: no rule, so its read of / is refused
# and logged once the create's records are in the log.
profile @NAME@_marker {
}
