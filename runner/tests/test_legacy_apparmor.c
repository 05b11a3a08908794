// SPDX-License-Identifier: GPL-2.0
/*
 * The v1 ids of the AppArmor socket-matrix tests (real ones, from runs
 * recorded before the rename) and today's id of the same decision.
 */
#include "check_run.h"
#include <errno.h>
#include <string.h>

#include "results/legacy.h"

static void maps(const char *v1, const char *abi, const char *want)
{
	char out[512];

	ck_assert_int_eq(legacy_apparmor_id(v1, abi, out, sizeof(out)), 0);
	ck_assert_str_eq(out, want);
	/* The dispatcher finds it too. */
	ck_assert_int_eq(legacy_id(v1, abi, out, sizeof(out)), 0);
	ck_assert_str_eq(out, want);
}

START_TEST(test_unix_peer)
{
	maps("unix_peer/5.0/dgram/abstract/send_deny/unconfined/sender.sendto",
	     "5.0",
	     "unix_peer_test/unix_peer.abi_5_0__dgram__abstract__send_deny__unconfined.decisions/sender.sendto");
	maps("unix_peer/kernel-5.4-vanilla/dgram/abstract/unconfined/unconfined/sender.socket",
	     "kernel-5.4-vanilla",
	     "unix_peer_test/unix_peer.abi_vanilla__dgram__abstract__unconfined__unconfined.decisions/sender.socket");
	/* A stacked label's "//&" is the variant's "_and_". */
	maps("unix_peer/3.0/seqpacket/pathname/allow//&send_deny/unconfined/receiver.accept",
	     "3.0",
	     "unix_peer_test/unix_peer.abi_3_0__seqpacket__pathname__allow_and_send_deny__unconfined.decisions/receiver.accept");
	maps("unix_peer/4.0/stream/socketpair/unconfined//&send_deny/inherit/sender.socketpair",
	     "4.0",
	     "unix_peer_test/unix_peer.abi_4_0__stream__socketpair__unconfined_and_send_deny__inherit.decisions/sender.socketpair");
	maps("unix_peer/5.0/stream/abstract/all_perms/no_getattr/receiver.getsockname",
	     "5.0",
	     "unix_peer_test/unix_peer.abi_5_0__stream__abstract__all_perms__no_getattr.decisions/receiver.getsockname");
}
END_TEST

START_TEST(test_inet)
{
	maps("inet/5.0/inet/stream/unconfined/unconfined/server.socket", "5.0",
	     "inet_test/inet.abi_5_0__inet__stream__unconfined__unconfined.decisions/server.socket");
	maps("inet/3.0/inet6/dgram/unconfined/allow//&deny_receive/server.receive",
	     "3.0",
	     "inet_test/inet.abi_3_0__inet6__dgram__unconfined__allow_and_deny_receive.decisions/server.receive");
	maps("inet/5.0/inet/stream/deny_connect/unconfined/client.fastopen_sendto",
	     "5.0",
	     "inet_test/inet.abi_5_0__inet__stream__deny_connect__unconfined.decisions/client.fastopen_sendto");
	maps("inet/kernel-5.4-vanilla/inet/dgram/deny_all/unconfined/client.send",
	     "kernel-5.4-vanilla",
	     "inet_test/inet.abi_vanilla__inet__dgram__deny_all__unconfined.decisions/client.send");
}
END_TEST

START_TEST(test_unix_coarse)
{
	/* One KTAP case per ABI: the matrix point goes to the op. */
	maps("unix_coarse/3.0/unix/dgram/abstract/inherited_sender/receiver.socket",
	     "3.0",
	     "unix_coarse_test/unix_coarse.abi_3_0.decisions/unix/dgram/abstract/inherited_sender/receiver.socket");
	maps("unix_coarse/kernel-5.4-vanilla/deny_dgram_send/stream/socketpair/confined_pair/pair.receive",
	     "kernel-5.4-vanilla",
	     "unix_coarse_test/unix_coarse.abi_vanilla.decisions/deny_dgram_send/stream/socketpair/confined_pair/pair.receive");
}
END_TEST

START_TEST(test_not_ours)
{
	char out[512];

	/* Other areas go to the next rules. */
	ck_assert_int_eq(legacy_apparmor_id("unix_rules/5.0/x/y.op", "5.0", out,
					    sizeof(out)),
			 -ENOENT);
	ck_assert_int_eq(
		legacy_apparmor_id(
			"selinux/socket/dgram/abstract/a/b/server.bind", "-",
			out, sizeof(out)),
		-ENOENT);
	/* A prefix is a whole first segment. */
	ck_assert_int_eq(legacy_apparmor_id("inetx/5.0/inet/stream/a/b/c.d",
					    "5.0", out, sizeof(out)),
			 -ENOENT);
	ck_assert_int_eq(
		legacy_apparmor_id(
			"unix_peer_test/unix_peer.x.decisions/sender.socket",
			"5.0", out, sizeof(out)),
		-ENOENT);
}
END_TEST

START_TEST(test_bad)
{
	char out[512], small[40];

	/* Ours, but not the shape: a field missing, one too many, empty. */
	ck_assert_int_eq(
		legacy_apparmor_id("inet/5.0/inet/stream/a/client.send", "5.0",
				   out, sizeof(out)),
		-EINVAL);
	ck_assert_int_eq(
		legacy_apparmor_id(
			"unix_peer/5.0/dgram/abstract/a/b/c/sender.send", "5.0",
			out, sizeof(out)),
		-EINVAL);
	ck_assert_int_eq(
		legacy_apparmor_id("unix_coarse/3.0/unix//abstract/k/pair.send",
				   "3.0", out, sizeof(out)),
		-EINVAL);
	ck_assert_int_eq(legacy_apparmor_id("inet/5.0/inet/stream/a/b/", "5.0",
					    out, sizeof(out)),
			 -EINVAL);
	/* An ABI that is no variant's. */
	ck_assert_int_eq(legacy_apparmor_id("inet/five/inet/stream/a/b/c.d",
					    "five", out, sizeof(out)),
			 -EINVAL);
	/* Too small a buffer is said, never a cut id. */
	ck_assert_int_eq(
		legacy_apparmor_id(
			"inet/5.0/inet/stream/unconfined/unconfined/server.socket",
			"5.0", small, sizeof(small)),
		-ENAMETOOLONG);
}
END_TEST

int main(void)
{
	return CHECK_RUN("legacy_apparmor", test_unix_peer, test_inet,
			 test_unix_coarse, test_not_ours, test_bad);
}
