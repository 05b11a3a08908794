# Confined, and allows everything the peers do: the baseline label.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
}
