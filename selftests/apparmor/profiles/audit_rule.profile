# audit_rule_test: a label a task enters for one call that an audit rule
# on labels (auditctl -F subj_role=) keeps or lets go. Its task reads and
# writes the pipes it was forked with and may stack the other profile.
abi <abi/@ABI@>,

profile @NAME@ {
  file,
  change_profile,
}
