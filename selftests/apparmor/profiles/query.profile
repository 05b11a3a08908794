# query_test: the labels the policy queries of .access ask about, loaded
# once and never entered. One path a rule form under /tmp/lsmconf_q (no
# such directory is needed: the query matches the path's text).
abi <abi/@ABI@>,

profile @NAME@ {
  /tmp/lsmconf_q/r r,
  /tmp/lsmconf_q/w w,
  /tmp/lsmconf_q/a a,
  /tmp/lsmconf_q/rwk rwk,
  /tmp/lsmconf_q/deny_w rw,
  deny /tmp/lsmconf_q/deny_w w,
  owner /tmp/lsmconf_q/owner r,
  audit /tmp/lsmconf_q/audit r,
  /tmp/lsmconf_q/rl rl,
  /tmp/lsmconf_q/rm rm,
}

# The second of a stack: reads anything under the directory.
profile @NAME@_read_all {
  /tmp/lsmconf_q/** r,
}

# The first profile's rules in complain mode.
profile @NAME@_complain flags=(complain) {
  /tmp/lsmconf_q/r r,
  /tmp/lsmconf_q/w w,
  /tmp/lsmconf_q/a a,
  /tmp/lsmconf_q/rwk rwk,
  /tmp/lsmconf_q/deny_w rw,
  deny /tmp/lsmconf_q/deny_w w,
  owner /tmp/lsmconf_q/owner r,
  audit /tmp/lsmconf_q/audit r,
  /tmp/lsmconf_q/rl rl,
  /tmp/lsmconf_q/rm rm,
}
