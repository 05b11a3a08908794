# hat_test: a profile with two hats and a child that is no hat. Each may
# write its own /proc/PID/attr/current, where libapparmor's aa_change_hat()
# writes "changehat TOKEN^HAT" and aa_getcon() reads the label back.
abi <abi/@ABI@>,

profile @NAME@ {
  /proc/*/attr/{,apparmor/}current rw,

  ^hat1 {
    /proc/*/attr/{,apparmor/}current rw,
  }

  ^hat2 {
    /proc/*/attr/{,apparmor/}current rw,
  }

  profile sub {
    /proc/*/attr/{,apparmor/}current rw,
  }
}
