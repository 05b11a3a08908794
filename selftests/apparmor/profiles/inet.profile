# A label of inet_test: the rules below the fixed ones are the network
# rules inet_test.c writes for it (rule_text()): "network," with a deny
# rule for one family and type ("deny network (bind) inet stream,"), or a
# permission list for the missing-permission sweep. capability: raw
# sockets need CAP_NET_RAW; change_profile: a stack is entered from the
# first profile.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  change_profile,
  @RULES@
}
