# policy_iface_test: one profile under one name in two versions. @RULES@
# is what follows the name: nothing (no attachment, enforce mode) or an
# attachment and flags=(complain) for the replacing version, so that the
# introspection files and a confined task's context tell the versions
# apart. Everything a peer does is allowed.
abi <abi/@ABI@>,

profile @NAME@ @RULES@ {
  file,
  signal,
  capability,
  network,
  unix,
}
