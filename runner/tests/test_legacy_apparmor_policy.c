// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_apparmor_policy_id(): real v1 ids (from records.tsv of runs made
 * before the rename) of each area, to the exact id today's tests write.
 */
#include "check_run.h"
#include <errno.h>

#include "results/legacy.h"

static const char *map(const char *v1)
{
	static char out[256];
	int ret = legacy_apparmor_policy_id(v1, "5.0", out, sizeof(out));

	ck_assert_msg(ret == 0, "%s: %d", v1, ret);
	return out;
}

static void unknown(const char *v1)
{
	char out[256];

	ck_assert_int_eq(legacy_apparmor_policy_id(v1, "5.0", out, sizeof(out)),
			 -ENOENT);
}

START_TEST(test_abi)
{
	ck_assert_str_eq(map("abi/6.1/allow/dgram/policy.compile"),
			 "abi_test/abi.set_6_1__allow__dgram.precompiled/"
			 "policy.compile");
	ck_assert_str_eq(map("abi/6.12/net_dgram_deny/dgram/sender.sendto"),
			 "abi_test/abi.set_6_12__net_dgram_deny__dgram."
			 "precompiled/sender.sendto");
	ck_assert_str_eq(map("abi/7.2/send_deny/stream/receiver.receive"),
			 "abi_test/abi.set_7_2__send_deny__stream.precompiled/"
			 "receiver.receive");
}
END_TEST

START_TEST(test_audit)
{
	ck_assert_str_eq(map("audit/fine/audit_deny/dgram/sender.send"),
			 "audit_test/audit.fine.records/audit_deny/dgram/"
			 "sender.send");
	ck_assert_str_eq(map("audit/coarse/complain/dgram/log.record"),
			 "audit_test/audit.coarse.records/complain/dgram/"
			 "log.record");
	unknown("audit/other/deny/dgram/sender.send");
}
END_TEST

START_TEST(test_features)
{
	ck_assert_str_eq(map("features/network/advertised"),
			 "features_test/feature.network.advertised/advertised");
	ck_assert_str_eq(map("features/network_v9/af_unix/advertised"),
			 "features_test/feature.network_v9_af_unix.advertised/"
			 "advertised");
	ck_assert_str_eq(map("features/policy/versions/advertised"),
			 "features_test/feature.policy_versions.advertised/"
			 "advertised");
	unknown("features/network/probed");
}
END_TEST

START_TEST(test_live)
{
	ck_assert_str_eq(map("live/5.0/dgram/sender_flips/phase_00"),
			 "live_test/live.dgram.sender_flips/phase_00");
	ck_assert_str_eq(map("live/5.0/stream/receiver_flips/phase_04"),
			 "live_test/live.stream.receiver_flips_sender_denied/"
			 "phase_04");
	ck_assert_str_eq(map("live/5.0/dgram/fixed_phase/phase_03"),
			 "live_test/live.dgram.fixed_phase_sender/phase_03");
	ck_assert_str_eq(map("live/5.0/stream/fixed_phase_stacked/phase_16"),
			 "live_test/live.stream.fixed_phase_stacked/phase_16");
	ck_assert_str_eq(map("live/5.0/dgram/revocation/new_socket"),
			 "live_test/live.dgram.revocation/new_socket");
	ck_assert_str_eq(map("live/5.0/stream/removal/after_removal"),
			 "live_test/live.stream.removal/after_removal");
	ck_assert_str_eq(map("live/5.0/dgram/first_send/phase_01"),
			 "live_test/live.dgram.first_send/phase_01");
	unknown("live/5.0/dgram/no_such_scenario/phase_00");
}
END_TEST

START_TEST(test_lifecycle)
{
	ck_assert_str_eq(
		map("lifecycle/5.0/dgram/change/client_after_socket/"
		    "existing.server.socket"),
		"unix_lifecycle_test/lifecycle.dgram_change.client_after_socket/"
		"existing.server.socket");
	ck_assert_str_eq(
		map("lifecycle/5.0/dgram/stack/exec_from_unconfined/"
		    "new.exec.connect"),
		"unix_lifecycle_test/lifecycle.dgram_stack.exec_from_unconfined/"
		"new.exec.connect");
	ck_assert_str_eq(
		map("lifecycle/5.0/stream/change/confined_write/"
		    "new.client.write"),
		"unix_lifecycle_test/lifecycle.stream_change.confined_write/"
		"new.client.write");
}
END_TEST

START_TEST(test_unix_rules)
{
	ck_assert_str_eq(map("unix_rules/5.0/paddr_pathname__refused/"
			     "parser.compile"),
			 "unix_rules_test/global.pathname_peer_addr_refused/"
			 "parser.compile");
	ck_assert_str_eq(map("unix_rules/5.0/label_glob__no_underscore/"
			     "receiver.bind"),
			 "unix_rules_test/unix_rules.label_glob__no_underscore."
			 "decisions/receiver.bind");
	ck_assert_str_eq(map("unix_rules/5.0/paddr_glob__match/sender.sendto"),
			 "unix_rules_test/unix_rules.paddr_glob__match."
			 "decisions/sender.sendto");
}
END_TEST

/* Other areas are the next rules' (-ENOENT); so are ids of a wrong shape. */
START_TEST(test_not_ours)
{
	char out[8];

	unknown("unix_peer/5.0/dgram/abstract/send_deny/unconfined/"
		"sender.sendto");
	unknown("selinux/socket/dgram/abstract/lsmconf_sk_no_listen_t/"
		"lsmconf_sk_t/server.getpeername");
	unknown("abilities/x");
	unknown("abi/6.1/allow/dgram");
	unknown("abi/6.1/allow/dgram/policy.compile/extra");
	unknown("abi/6.1//dgram/policy.compile");
	unknown("unix_rules/5.0/label_exact__match");
	unknown("lifecycle/5.0/dgram/change/client_after_socket");
	unknown("");
	/* Known, but @out too small. */
	ck_assert_int_eq(legacy_apparmor_policy_id("live/5.0/dgram/removal/"
						   "after_removal",
						   "5.0", out, sizeof(out)),
			 -ENAMETOOLONG);
}
END_TEST

/* The dispatcher reaches these rules. */
START_TEST(test_dispatch)
{
	char out[256];

	ck_assert_int_eq(legacy_id("audit/fine/deny/stream/sender.connect",
				   "5.0", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "audit_test/audit.fine.records/deny/stream/"
			      "sender.connect");
}
END_TEST

int main(void)
{
	return CHECK_RUN("legacy_apparmor_policy", test_abi, test_audit,
			 test_features, test_live, test_lifecycle,
			 test_unix_rules, test_not_ours, test_dispatch);
}
