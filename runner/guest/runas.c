// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /lsmconf/runas UID PROGRAM [ARG...]: runs PROGRAM as user
 * and group UID, with no supplementary groups; the change of user clears
 * every capability. The guest init uses it for lsmconf.user=UID (the
 * tests as a user who may not load policy). The guest's busybox has no
 * way to change user without /etc/passwd (its setpriv has no --reuid).
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long uid;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID PROGRAM [ARG...]\n");
		return 2;
	}
	errno = 0;
	uid = strtoul(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || !uid || uid > 65534) {
		fprintf(stderr, "runas: not a user id from 1 to 65534: %s\n",
			argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		fprintf(stderr, "runas: cannot become uid %lu: %s\n", uid,
			strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
