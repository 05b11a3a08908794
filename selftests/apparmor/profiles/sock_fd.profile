# A label of sock_fd_test: the task that uses a socket fd another label
# made. The rules below the fixed ones are the unix and network rules
# sock_fd_test.c writes for it (all, send/receive only, or none that the
# fd's operations need).
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  signal,
  capability,
  @RULES@
}
