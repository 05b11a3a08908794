# policy_iface_test: a profile in the policy namespace lsmconf_t_pins (the
# test's PI_NS); loading it creates the namespace. Nothing is confined by it.
abi <abi/@ABI@>,

profile :lsmconf_t_pins:@NAME@ {
  file,
}
