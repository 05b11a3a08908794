# Old-ABI coarse network rules written as old policies write them, one
# profile per rule (unix_coarse_test.c loads the file once per case and
# enters one of them). A coarse rule names an address family and maybe a
# socket type and permissions; under ABI kernel-5.4-vanilla the parser
# drops every network rule.
abi <abi/@ABI@>,

profile @NAME@_unix {
  file,
  signal,
  network unix,
}

profile @NAME@_unix_stream {
  file,
  signal,
  network unix stream,
}

profile @NAME@_unix_dgram {
  file,
  signal,
  network unix dgram,
}

profile @NAME@_deny_unix {
  file,
  signal,
  network,
  deny network unix,
}

profile @NAME@_deny_stream {
  file,
  signal,
  network,
  deny network unix stream,
}

profile @NAME@_deny_dgram {
  file,
  signal,
  network,
  deny network unix dgram,
}

profile @NAME@_deny_dgram_send {
  file,
  signal,
  network,
  deny network (send) unix dgram,
}

profile @NAME@_deny_dgram_receive {
  file,
  signal,
  network,
  deny network (receive) unix dgram,
}

profile @NAME@_deny_stream_send {
  file,
  signal,
  network,
  deny network (send) unix stream,
}

# "network unix," and file rules that leave out /tmp, where the test's
# pathname sockets live: the old policy that never named its socket paths.
profile @NAME@_unix_nofile {
  / r,
  /{usr,etc,proc,sys,dev,run}/** rwmk,
  signal,
  network unix,
}

# Denials that leave the socket to be made, so that bind, listen and
# accept on a pathname socket are decided by the rules (where all of a
# type is denied, socket() is refused first).
profile @NAME@_deny_bind {
  file,
  signal,
  network,
  deny network (bind) unix,
}

profile @NAME@_deny_stream_listen {
  file,
  signal,
  network,
  deny network (listen, accept) unix stream,
}

profile @NAME@_deny_getattr {
  file,
  signal,
  network,
  deny network (getattr) unix,
}
