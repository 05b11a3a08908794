# Denies writing below the test's pathname-socket directories. Under
# network_v9 a peer check on a pathname socket is a file check on its path
# (send = write), so this denies sending to such sockets; older ABIs keep
# the coarse allow.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
  deny /tmp/lsmconf-fs-*/** w,
}
