# exec_test: every profile of the exec-transition cases. The test writes
# them all (the rules placeholder below) at run time from its case table
# (exec_rules() in exec_test.c), naming the directory of hard links to its
# own binary that it made in the guest, so the x rules and attachments
# name real paths. The first profile is the source of the transitions.
abi <abi/@ABI@>,

@RULES@
