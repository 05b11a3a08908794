# param_test: the labels of the module parameter and sysctl cases, loaded
# once. The files are /sys/module/apparmor/parameters/* and AppArmor's
# sysctls, /proc/sys/kernel/*apparmor*; the child reports over a pipe,
# which AppArmor does not mediate (pipefs is no path-mediated filesystem).
# Each profile may read and write its own /proc/PID/attr files: the child
# stacks and reads its label back there.
abi <abi/@ABI@>,

# May read and write the files; no capability.
profile @NAME@ {
  /proc/*/attr/{,apparmor/}current rw,
  /sys/module/apparmor/parameters/* rw,
  /proc/sys/kernel/* rw,
}

profile @NAME@_admin {
  /proc/*/attr/{,apparmor/}current rw,
  change_profile,
  /sys/module/apparmor/parameters/* rw,
  /proc/sys/kernel/* rw,
  capability mac_admin,
}

# May read the files only.
profile @NAME@_admin_ro {
  /proc/*/attr/{,apparmor/}current rw,
  /sys/module/apparmor/parameters/* r,
  /proc/sys/kernel/* r,
  capability mac_admin,
}

# No rule for the files.
profile @NAME@_admin_nofile {
  /proc/*/attr/{,apparmor/}current rw,
  capability mac_admin,
}

profile @NAME@_deny_admin {
  /proc/*/attr/{,apparmor/}current rw,
  /sys/module/apparmor/parameters/* rw,
  /proc/sys/kernel/* rw,
  capability,
  deny capability mac_admin,
}

profile @NAME@_complain flags=(complain) {
}
