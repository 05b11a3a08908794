# The inet label of unix_send_bench (confinement "inet", seed 003): no
# bare "network," rule, only explicit inet stream and dgram rules, so
# every TCP and UDP message goes through the confined inet path.
# file: the samples file and the eventfds.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  network inet stream,
  network inet dgram,
}
