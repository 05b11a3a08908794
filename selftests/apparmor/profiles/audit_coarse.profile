# The same qualifiers on a coarse network rule of an old ABI (4.0), which
# every kernel mediates; "marker" makes the audit record that closes each
# case's window in the log.
abi <abi/@ABI@>,

profile @NAME@_audit_deny {
  file,
  signal,
  network,
  audit deny network (send) unix dgram,
}

profile @NAME@_deny {
  file,
  signal,
  network,
  deny network (send) unix dgram,
}

profile @NAME@_audit {
  file,
  signal,
  network,
  audit network (send) unix dgram,
}

profile @NAME@_complain flags=(complain) {
  file,
  signal,
  network (create, bind, listen, accept, connect, receive, getattr, setattr,
           getopt, setopt, shutdown) unix,
}

profile @NAME@_marker {
  file,
  signal,
  network,
  audit network (send) unix dgram,
}
