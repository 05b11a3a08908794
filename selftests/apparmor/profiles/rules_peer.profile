# unix_rules_test: a peer label (lsmconf_t_rules_peer_*, and near misses
# of that name). It allows everything: only the name matters, as the
# peer=(label=...) of the profile under test.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  network,
  unix,
}
