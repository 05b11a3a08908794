// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <errno.h>
#include <string.h>

#include "results/legacy.h"

/* Real v1 ids (debian:sid runs before the rename) and their decisions now. */
static const struct {
	const char *v1, *id;
} ids[] = {
	/* socket_test: who lacks what names the variant */
	{ "selinux/socket/stream/pathname/lsmconf_sk_t/lsmconf_sk_no_listen_t/server.listen",
	  "socket_test/sk_pair.stream_pathname_s_no_listen.talk/server.listen" },
	{ "selinux/socket/dgram/abstract/lsmconf_sk_no_listen_t/lsmconf_sk_t/server.getpeername",
	  "socket_test/sk_pair.dgram_abstract_c_no_listen.talk/server.getpeername" },
	{ "selinux/socket/seqpacket/abstract/lsmconf_sk_t/lsmconf_sk_t/client.peersec",
	  "socket_test/sk_pair.seqpacket_abstract_ok.talk/client.peersec" },
	{ "selinux/socket/fd/stream/lsmconf_sk_t/lsmconf_sk_no_accept_t/receiver.fionread",
	  "socket_test/sk_fd.to_sk_no_accept.pass_and_use/receiver.fionread" },
	{ "selinux/socket/fd/stream/lsmconf_sk_t/lsmconf_sk_t/sender.sendfd",
	  "socket_test/sk_fd.to_sk.pass_and_use/sender.sendfd" },
	/* msgq_test */
	{ "selinux/msgq/c1024/enforcing/lsmconf_s_no_write_t/lsmconf_r_ok_t/create",
	  "msgq_test/msgq.c1024_s_no_write_to_r_ok.pair/create" },
	{ "selinux/msgq/c1024/permissive/lsmconf_s_no_send_t/lsmconf_r_ok_t/msgsnd",
	  "msgq_test/permissive.denied_send_allowed_and_logged/msgsnd" },
	/* ipc_test: sweeps of each class, handovers */
	{ "selinux/sem/c4/enforcing/lsmconf_ipc_ok_t/lsmconf_ipc_no_unix_read_t/other_semctl_getpid",
	  "ipc_test/ipc.sem_ok_with_no_unix_read.sweep/other_semctl_getpid" },
	{ "selinux/shm/c4/enforcing/lsmconf_ipc_no_lock_t/lsmconf_ipc_ok_t/other_shmat_rdonly",
	  "ipc_test/ipc.shm_no_lock_with_ok.sweep/other_shmat_rdonly" },
	{ "selinux/msgq/c4/enforcing/lsmconf_ipc_no_enqueue_t/lsmconf_ipc_ok_t/other_msgctl_ipc_info",
	  "ipc_test/ipc.msgq_no_enqueue_with_ok.sweep/other_msgctl_ipc_info" },
	{ "selinux/msgq/c4/blocked/lsmconf_ipc_ok_t/1/8192/lsmconf_ipc_ok_t/handover",
	  "ipc_test/blocked.ok_except_1_from_ok.handover/handover" },
	{ "selinux/msgq/c4/blocked/lsmconf_ipc_ok_t/-1/0/lsmconf_ipc_ok_t/handover",
	  "ipc_test/blocked.ok_type_minus_1_from_ok.handover/handover" },
	{ "selinux/msgq/c4/blocked/lsmconf_ipc_ok_t/2/0/lsmconf_ipc_ok_t/handover",
	  "ipc_test/blocked.ok_type_2_from_ok.handover/handover" },
	{ "selinux/msgq/c4/blocked/lsmconf_ipc_no_read_t/0/0/lsmconf_ipc_ok_t/handover",
	  "ipc_test/blocked.no_read_any_from_ok.handover/handover" },
	/* mls_test */
	{ "selinux/mls/pair/c1024_incomp_c383_c384/connect",
	  "mls_test/mls_pair.c1024_incomp_c383_c384.decide/connect" },
	{ "selinux/mls/valid/c4_narrow_user_c2/execve",
	  "mls_test/validity.c4_narrow_user_c2.setcon_and_exec/execve" },
	{ "selinux/mls/canon/c1024_full/context_write",
	  "mls_test/canonical.c1024_full.read_back/context_write" },
	/* modes_test: a bools case decides a step per op */
	{ "selinux/modes/mode/permissive/lsmconf_md_perm_t/sendto/avc.sendto1",
	  "modes_test/modes.permissive_perm_sendto.twice/avc.sendto1" },
	{ "selinux/modes/mode/enforcing/lsmconf_md_ok_t/msgsnd/msgget",
	  "modes_test/modes.enforcing_ok_msgsnd.twice/msgget" },
	{ "selinux/modes/bool/reload/pending_dropped/active",
	  "modes_test/bools.reload/pending_dropped/active" },
	{ "selinux/modes/reload/queue_send_dropped/existing.drop.msgget",
	  "modes_test/reload.queue_send_dropped/existing.drop.msgget" },
	/* unix_test */
	{ "selinux/unix/c1024/dgram-unconnected/lsmconf_c_no_sendto_t/lsmconf_srv_t/connect",
	  "unix_test/unix_pair.c1024_dgram_unconnected_c_no_sendto.reach_server/connect" },
	{ "selinux/unix/c4/stream/lsmconf_c_ok_t/lsmconf_srv_t/connect",
	  "unix_test/unix_pair.c4_stream_c_ok.reach_server/connect" },
	/* lifecycle_test */
	{ "selinux/lifecycle/stream/reload_after_connect/new.client.connect",
	  "lifecycle_test/sel_lifecycle.stream.reload_after_connect/new.client.connect" },
};

START_TEST(test_each_area)
{
	char out[256];
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		ck_assert_int_eq(legacy_selinux_id(ids[i].v1, "selinux-c4", out,
						   sizeof(out)),
				 0);
		ck_assert_str_eq(out, ids[i].id);
		/* The dispatcher finds the same. */
		ck_assert_int_eq(
			legacy_id(ids[i].v1, "selinux-c4", out, sizeof(out)),
			0);
		ck_assert_str_eq(out, ids[i].id);
	}
}
END_TEST

START_TEST(test_not_selinux)
{
	static const char *const other[] = {
		/* AppArmor's, today's, and misshapen SELinux ones */
		"unix_peer/5.0/dgram/abstract/send_deny/unconfined/sender.sendto",
		"socket_test/sk_pair.stream_abstract_ok.talk/client.socket",
		"selinux/socket/stream/abstract/lsmconf_sk_no_read_t/lsmconf_sk_no_write_t/client.read",
		"selinux/socket/stream/abstract/sk/lsmconf_sk_t/client.read",
		"selinux/socket/fd/dgram/lsmconf_sk_t/lsmconf_sk_t/sender.sendfd",
		"selinux/msgq/c4/blocked/lsmconf_ipc_ok_t/x/0/lsmconf_ipc_ok_t/handover",
		"selinux/msgq/c4/blocked/lsmconf_ipc_ok_t/1/4096/lsmconf_ipc_ok_t/handover",
		"selinux/msgq/c4/permissive/lsmconf_s_ok_t/lsmconf_r_ok_t/create",
		"selinux/mls/other/c4_s0/setcon",
		"selinux/modes/mode/enforcing/lsmconf_sk_t/msgsnd/msgsnd1",
		"selinux/lifecycle/stream/reload_after_connect",
		"selinux/audit/a/b/c",
		"selinux/a/b/c/d/e/f/g/h/i/j/k",
		"selinux",
		"",
	};
	char out[256];
	size_t i;

	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		ck_assert_msg(legacy_selinux_id(other[i], "-", out,
						sizeof(out)) == -ENOENT,
			      "%s mapped", other[i]);
}
END_TEST

START_TEST(test_too_small)
{
	char out[24];

	ck_assert_int_eq(legacy_selinux_id(ids[0].v1, "-", out, sizeof(out)),
			 -ENAMETOOLONG);
	ck_assert_int_eq(
		legacy_selinux_id(ids[0].v1, "-", out, strlen(ids[0].id)),
		-ENAMETOOLONG);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = { test_each_area, test_not_selinux,
				       test_too_small };

	return check_run("legacy_selinux", tests,
			 sizeof(tests) / sizeof(tests[0]));
}
