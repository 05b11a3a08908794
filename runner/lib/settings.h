/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kselftest "settings" file (tools/testing/selftests/<dir>/settings):
 * the timeout= that kselftest's runner gives each program of the
 * directory, which lsmconf's runner applies too, so there is one number.
 */
#ifndef LSMCONF_SETTINGS_H
#define LSMCONF_SETTINGS_H

/* kselftest/runner.sh's bound for a directory without a settings file. */
#define SETTINGS_DEFAULT_TIMEOUT_S 45

struct err;

/*
 * The timeout= of settings text @text ('#' lines are comments, as
 * runner.sh reads them; the last timeout= counts). Returns the number of
 * seconds (> 0), SETTINGS_DEFAULT_TIMEOUT_S when @text sets none, or -1
 * with a one-line reason in @e for a value that is not a positive number.
 */
int settings_timeout(const char *text, struct err *e);

/*
 * The same for the file @dir/settings; an absent file means the default.
 * -1 with the path in @e when it cannot be read or is malformed.
 */
int settings_dir_timeout(const char *dir, struct err *e);

#endif
