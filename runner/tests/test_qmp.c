// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/qmp.c
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "vm/qmp.h"

static char value[64];

/* qmp_parse() into @value, which it must always leave NUL-terminated. */
static enum qmp_kind parse(const char *line)
{
	enum qmp_kind k;

	memset(value, 'Z', sizeof(value));
	k = qmp_parse(line, value, sizeof(value));
	ck_assert_ptr_nonnull(memchr(value, '\0', sizeof(value)));
	return k;
}

START_TEST(test_greeting)
{
	ck_assert_int_eq(
		parse("{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 13, "
		      "\"minor\": 2, \"major\": 7}, \"package\": "
		      "\"Debian 1:7.2+dfsg-7+deb12u13\"}, "
		      "\"capabilities\": []}}"),
		QMP_GREETING);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(
		parse("{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, "
		      "\"minor\": 2, \"major\": 9}, \"package\": "
		      "\"Debian 1:9.2.0+ds-1\"}, \"capabilities\": "
		      "[\"oob\"]}}"),
		QMP_GREETING);
	ck_assert_str_eq(value, "");
	/* Compact. */
	ck_assert_int_eq(
		parse("{\"QMP\":{\"version\":{},\"capabilities\":[]}}"),
		QMP_GREETING);
}
END_TEST

START_TEST(test_events)
{
	ck_assert_int_eq(parse("{\"timestamp\": {\"seconds\": 1700000000, "
			       "\"microseconds\": 5}, \"event\": \"STOP\"}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "STOP");
	ck_assert_int_eq(parse("{\"timestamp\": {\"seconds\": 1700000000, "
			       "\"microseconds\": 512345}, \"event\": "
			       "\"RESUME\"}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "RESUME");
	ck_assert_int_eq(parse("{\"timestamp\": {\"seconds\": 1700000001, "
			       "\"microseconds\": 77}, \"event\": "
			       "\"SHUTDOWN\", \"data\": {\"guest\": true, "
			       "\"reason\": \"guest-shutdown\"}}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "SHUTDOWN");
}
END_TEST

START_TEST(test_event_compact)
{
	ck_assert_int_eq(parse("{\"timestamp\":{\"seconds\":1700000000,"
			       "\"microseconds\":5},\"event\":\"STOP\"}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "STOP");
	/* The event first, tabs around the colon. */
	ck_assert_int_eq(parse("{\"event\"\t:\t\"RESET\",\"timestamp\":{}}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "RESET");
}
END_TEST

START_TEST(test_event_with_data)
{
	ck_assert_int_eq(
		parse("{\"timestamp\": {\"seconds\": 1700000000, "
		      "\"microseconds\": 250000}, \"event\": "
		      "\"GUEST_PANICKED\", \"data\": {\"action\": \"pause\", "
		      "\"info\": {\"type\": \"hyper-v\", \"arg1\": 0}}}"),
		QMP_EVENT);
	ck_assert_str_eq(value, "GUEST_PANICKED");
	/* The data first: its members are not the event. */
	ck_assert_int_eq(parse("{\"data\": {\"status\": \"running\", \"id\": "
			       "\"j\"}, \"event\": \"JOB_STATUS_CHANGE\", "
			       "\"timestamp\": {}}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "JOB_STATUS_CHANGE");
}
END_TEST

START_TEST(test_status)
{
	ck_assert_int_eq(parse("{\"return\": {\"status\": \"internal-error\", "
			       "\"singlestep\": false, \"running\": false}}"),
			 QMP_STATUS);
	ck_assert_str_eq(value, "internal-error");
	ck_assert_int_eq(parse("{\"return\": {\"status\": \"running\", "
			       "\"singlestep\": false, \"running\": true}}"),
			 QMP_STATUS);
	ck_assert_str_eq(value, "running");
	ck_assert_int_eq(parse("{\"return\":{\"status\":\"guest-panicked\","
			       "\"running\":false}}"),
			 QMP_STATUS);
	ck_assert_str_eq(value, "guest-panicked");
}
END_TEST

START_TEST(test_other)
{
	ck_assert_int_eq(parse("{\"return\": {}}"), QMP_OTHER);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(parse("{\"return\": {\"running\": true}}"), QMP_OTHER);
	ck_assert_str_eq(value, "");
	/* A status outside a reply. */
	ck_assert_int_eq(parse("{\"status\": \"running\"}"), QMP_OTHER);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(parse("{\"error\": {\"class\": \"CommandNotFound\", "
			       "\"desc\": \"The command x has not been "
			       "found\"}}"),
			 QMP_OTHER);
	ck_assert_str_eq(value, "");
}
END_TEST

START_TEST(test_noise)
{
	static const char *const noise[] = {
		"",
		"\r",
		"qemu-system-x86_64: terminating on signal 15",
		"{",
		"}",
		"\"event\"",
		"{\"event\": 3}",
		"{\"event\": }",
		"{\"event\" \"STOP\"}",
		/* A line cut off in the middle of the name. */
		"{\"timestamp\": {\"seconds\": 1}, \"event\": \"STO",
		"{\"return\": {\"status\": \"runn",
		"QMP",
	};
	size_t i;

	for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++) {
		ck_assert_msg(parse(noise[i]) == QMP_OTHER, "\"%s\"", noise[i]);
		ck_assert_msg(!value[0], "\"%s\": value \"%s\"", noise[i],
			      value);
	}
}
END_TEST

START_TEST(test_cut_after_name)
{
	/*
	 * The boot watcher reuses its line buffer: past a short line's NUL
	 * lie the bytes of an older one, which are not this line's.
	 */
	static const char after_colon[] = "{\"event\":\0\"event\": \"STOP\"}";
	static const char after_name[] = "{\"event\"\0\"event\": \"STOP\"}";
	static const char status[] = "{\"return\": {\"status\":\0"
				     "\"status\": \"paused\"}}";

	ck_assert_int_eq(parse(after_colon), QMP_OTHER);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(parse(after_name), QMP_OTHER);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(parse(status), QMP_OTHER);
	ck_assert_str_eq(value, "");
}
END_TEST

START_TEST(test_member_names)
{
	/* Only a member named exactly "event" is the event. */
	ck_assert_int_eq(parse("{\"xevent\": \"STOP\"}"), QMP_OTHER);
	ck_assert_str_eq(value, "");
	ck_assert_int_eq(parse("{\"events\": \"STOP\"}"), QMP_OTHER);
	ck_assert_int_eq(parse("{\"my_event\":\"STOP\",\"xstatus\":\"x\"}"),
			 QMP_OTHER);
	ck_assert_int_eq(parse("{\"xevent\": \"STOP\", \"event\": \"RESUME\"}"),
			 QMP_EVENT);
	ck_assert_str_eq(value, "RESUME");
	/* "event" as a value, not a name. */
	ck_assert_int_eq(parse("{\"return\": {\"status\": \"event\"}}"),
			 QMP_STATUS);
	ck_assert_str_eq(value, "event");
	ck_assert_int_eq(parse("{\"return\": {\"xstatus\": \"running\"}}"),
			 QMP_OTHER);
	ck_assert_str_eq(value, "");
}
END_TEST

START_TEST(test_truncated_value)
{
	static const char line[] =
		"{\"timestamp\": {\"seconds\": 1700000000, \"microseconds\": "
		"5}, \"event\": \"A_VERY_LONG_EVENT_NAME_THAT_DOES_NOT_FIT\"}";
	char small[16];

	/* 8 bytes of room: 7 characters and the NUL; nothing past them. */
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(qmp_parse(line, small, 8), QMP_EVENT);
	ck_assert_str_eq(small, "A_VERY_");
	ck_assert_int_eq(memcmp(small + 8, "ZZZZZZZZ", 8), 0);

	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(qmp_parse("{\"return\": {\"status\": "
				   "\"finish-migrate\"}}",
				   small, 7),
			 QMP_STATUS);
	ck_assert_str_eq(small, "finish");
	ck_assert_int_eq(memcmp(small + 7, "ZZZZZZZZZ", 9), 0);

	/* A value that just fits, and one byte of room. */
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(qmp_parse("{\"event\": \"STOP\"}", small, 5),
			 QMP_EVENT);
	ck_assert_str_eq(small, "STOP");
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(qmp_parse("{\"event\": \"STOP\"}", small, 1),
			 QMP_EVENT);
	ck_assert_str_eq(small, "");
	ck_assert_int_eq(small[1], 'Z');

	/* No room at all: nothing is written, even for an empty value. */
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(qmp_parse("{\"event\": \"STOP\"}", small, 0),
			 QMP_EVENT);
	ck_assert_int_eq(qmp_parse("{\"event\": \"\"}", small, 0), QMP_EVENT);
	ck_assert_int_eq(qmp_parse("{\"return\": {}}", small, 0), QMP_OTHER);
	ck_assert_int_eq(small[0], 'Z');
}
END_TEST

START_TEST(test_status_alive)
{
	ck_assert(qmp_status_alive("running"));
	ck_assert(qmp_status_alive("shutdown"));
	ck_assert(qmp_status_alive("prelaunch"));
	ck_assert(!qmp_status_alive("internal-error"));
	ck_assert(!qmp_status_alive("guest-panicked"));
	ck_assert(!qmp_status_alive("paused"));
	ck_assert(!qmp_status_alive("io-error"));
	ck_assert(!qmp_status_alive(""));
	/* Whole names only. */
	ck_assert(!qmp_status_alive("runnin"));
	ck_assert(!qmp_status_alive("running "));
	ck_assert(!qmp_status_alive("Running"));
}
END_TEST

START_TEST(test_parse_then_alive)
{
	/* What the boot watcher does with a reply. */
	ck_assert_int_eq(parse("{\"return\": {\"status\": \"io-error\", "
			       "\"singlestep\": false, \"running\": false}}"),
			 QMP_STATUS);
	ck_assert(!qmp_status_alive(value));
	ck_assert_int_eq(parse("{\"return\": {\"status\": \"shutdown\", "
			       "\"singlestep\": false, \"running\": false}}"),
			 QMP_STATUS);
	ck_assert(qmp_status_alive(value));
}
END_TEST

/* QEMU ended by the host (SIGTERM: it exits 0) or by the guest. */
START_TEST(test_host_shutdown)
{
	ck_assert(qmp_host_shutdown(
		"{\"timestamp\": {\"seconds\": 1764000000, \"microseconds\": 1}, "
		"\"event\": \"SHUTDOWN\", \"data\": {\"guest\": false, "
		"\"reason\": \"host-signal\"}}"));
	ck_assert(qmp_host_shutdown(
		"{\"event\":\"SHUTDOWN\",\"data\":{\"guest\":false,\"reason\":\"host-ui\"}}"));
	ck_assert(!qmp_host_shutdown(
		"{\"event\": \"SHUTDOWN\", \"data\": {\"guest\": true, "
		"\"reason\": \"guest-reset\"}}"));
	ck_assert(!qmp_host_shutdown(
		"{\"event\": \"SHUTDOWN\", \"data\": {\"guest\": true, "
		"\"reason\": \"guest-panic\"}}"));
	/* Another event with that reason, a reply, a line cut short. */
	ck_assert(!qmp_host_shutdown(
		"{\"event\": \"STOP\", \"data\": {\"reason\": \"host-signal\"}}"));
	ck_assert(!qmp_host_shutdown("{\"return\": {}}"));
	ck_assert(!qmp_host_shutdown(
		"{\"event\": \"SHUTDOWN\", \"data\": {\"reason\": \"host-sig"));
	ck_assert(!qmp_host_shutdown(""));
}
END_TEST

int main(void)
{
	return CHECK_RUN("qmp", test_greeting, test_events, test_event_compact,
			 test_event_with_data, test_status, test_other,
			 test_noise, test_cut_after_name, test_member_names,
			 test_truncated_value, test_status_alive,
			 test_parse_then_alive, test_host_shutdown);
}
