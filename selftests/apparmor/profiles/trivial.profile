# The smallest useful test profile: everything allowed, nothing mediated
# beyond what the ABI line selects. @NAME@ and @ABI@ are filled in by the
# test helper (selftests/apparmor/common.h).
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  network,
  capability,
  signal,
  unix,
}
