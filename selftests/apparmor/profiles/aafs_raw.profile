# aafs_test: the profile a raw data case loads, reads back through
# apparmorfs and removes. Its rules only give the blob some body.
abi <abi/@ABI@>,

profile @NAME@ {
  /tmp/lsmconf_aafs/r r,
  /tmp/lsmconf_aafs/w w,
  /tmp/lsmconf_aafs/** rk,
  deny /tmp/lsmconf_aafs/deny w,
}
