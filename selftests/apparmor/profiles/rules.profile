# unix_rules_test: the profile under test. The test writes its rules
# from its rule table (rule_text() in unix_rules_test.c): the unix
# permissions it grants unconditionally, the one fine-grained rule form
# that alone grants what the case decides on, and the file rules.
abi <abi/@ABI@>,

profile @NAME@ {
  signal,
  capability,
  change_profile,
  @RULES@
}
