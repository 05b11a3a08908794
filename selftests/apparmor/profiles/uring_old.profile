# uring_test: a profile compiled for ABI 3.0, which has no io_uring
# class: its rules do not mediate io_uring at all.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
}
