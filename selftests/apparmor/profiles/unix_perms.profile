# The missing-permission sweep: grants exactly the unix permissions in
# @PERMS@ (all of them but one), and no coarse network rule that would
# grant the missing one back.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  unix (@PERMS@),
}
