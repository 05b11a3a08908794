# A profile in unconfined mode: its deny rule must never be enforced.
abi <abi/@ABI@>,

profile @NAME@ flags=(unconfined) {
  deny unix (send),
}
