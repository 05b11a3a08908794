# Denies receiving on AF_UNIX sockets (fine-grained rule, ABI 5.0).
# Under an older ABI the parser drops the rule: nothing is denied.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
  deny unix (receive),
}
