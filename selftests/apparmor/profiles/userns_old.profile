# userns_test: a profile compiled for ABI 3.0, which has no namespaces
# class: the parser writes no userns mediation into it.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
}
