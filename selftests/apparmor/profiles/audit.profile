# The audit and deny qualifiers and complain mode on a fine-grained unix
# rule (ABI 5.0), one profile per case (audit_test.c loads the file once).
abi <abi/@ABI@>,

profile @NAME@_audit_deny {
  file,
  signal,
  network,
  unix,
  audit deny unix (send),
}

profile @NAME@_deny {
  file,
  signal,
  network,
  unix,
  deny unix (send),
}

profile @NAME@_audit {
  file,
  signal,
  network,
  unix,
  audit unix (send),
}

# Every unix permission but send, and no network rule that would grant it.
profile @NAME@_complain flags=(complain) {
  file,
  signal,
  unix (create, bind, listen, accept, connect, receive, getattr, setattr,
        getopt, setopt, shutdown),
}
