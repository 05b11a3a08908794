# task_peer_test: one label of a signal/ptrace case. The test writes its
# signal and ptrace rules (tp_rules in task_peer_test.c); file, capability
# and change_profile let its processes read /proc/PID/exe, pass
# ptrace's capability checks and enter the stacks.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  capability,
  change_profile,
  network,
  unix,
  @RULES@
}
