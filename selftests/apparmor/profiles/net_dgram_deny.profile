# Denies AF_UNIX datagram sockets by a coarse network rule (family and
# type, every network permission): mediated per socket at any ABI, so on
# every kernel, with or without fine-grained AF_UNIX mediation.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
  deny network unix dgram,
}
