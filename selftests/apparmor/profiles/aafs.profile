# aafs_test: the labels that read apparmorfs's files about their own label
# (.stacked, .ns_stacked, .ns_level, .ns_name), loaded once. Each may
# write its own /proc/PID/attr files, where the child changes and stacks.
abi <abi/@ABI@>,

profile @NAME@ {
  /proc/*/attr/{,apparmor/}current rw,
  change_profile,
  /sys/kernel/security/apparmor/.{stacked,ns_stacked,ns_level,ns_name} r,
}

# The second of a stack: the same rules.
profile @NAME@_b {
  /proc/*/attr/{,apparmor/}current rw,
  change_profile,
  /sys/kernel/security/apparmor/.{stacked,ns_stacked,ns_level,ns_name} r,
}

# No rule for the files.
profile @NAME@_norule {
  /proc/*/attr/{,apparmor/}current rw,
}
