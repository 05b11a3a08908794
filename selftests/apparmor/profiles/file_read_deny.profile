# Denies reading below the test's pathname-socket directories: under
# network_v9, receiving on a pathname socket is a read of its path.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
  deny /tmp/lsmconf-fs-*/** r,
}
