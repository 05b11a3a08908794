# attr_iface_test's confined subject: may change to any profile
# (change_profile with no target) and has one hat, hat1, so that
# changehat, permhat and the hat-not-found errors can all be reached.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  network,
  unix,
  change_profile,

  ^hat1 {
    file,
    signal,
    capability,
    network,
    unix,
  }
}
