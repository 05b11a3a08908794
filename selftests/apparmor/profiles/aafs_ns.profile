# aafs_test: a reader in the policy namespace lsmconf_t_aafsns (the test's
# AAFS_NS); loading it creates the namespace, the test removes both.
abi <abi/@ABI@>,

profile :lsmconf_t_aafsns:@NAME@ {
  /proc/*/attr/{,apparmor/}current rw,
  /sys/kernel/security/apparmor/.{stacked,ns_stacked,ns_level,ns_name} r,
}
