// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor's task-attribute interfaces (issue #23).
 *
 * Each case is one write of one command to one interface by a child in a
 * known label, then every reader of the child's attributes:
 *
 *   interfaces  /proc/self/attr/apparmor/{current,exec} (aa),
 *               /proc/self/attr/{current,exec} (legacy),
 *               lsm_set_self_attr() (sys, Linux 6.8+),
 *               libapparmor's aa_change_profile(), aa_change_hat(),
 *               aa_change_onexec(), aa_stack_onexec() (lib)
 *   commands    changeprofile, permprofile, stack, changehat, permhat,
 *               exec; malformed, empty, too long, unknown
 *   readers     aa_getcon(), /proc/self/attr/apparmor/{current,prev,exec},
 *               lsm_get_self_attr(CURRENT, PREV, EXEC) for the sys cases,
 *               and /proc/PID/attr/current read by the test (another task)
 *
 * The model (attr_model()) computes the write's errno and the label each
 * reader then shows from the case alone, one rule per step of
 * do_setattr() (security/apparmor/lsm.c), aa_setprocattr_changehat()
 * (procattr.c), aa_change_hat() and aa_change_profile() (domain.c).
 *
 * A reader's record: expected 0 means "reads the model's text" (in the
 * record's detail); observed is 0 when the text is that, -EPROTO when it
 * is another text (both logged), or the read's -errno.
 */

#define _GNU_SOURCE
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/lsm_self_attr.h"
#include "harness_main.h"

#define ABI "5.0"
#define BASE AA_TEST_PREFIX "attr_base"
#define TARGET AA_TEST_PREFIX "attr_target"
#define MISSING AA_TEST_PREFIX "attr_missing"
#define HAT "hat1"
#define TOKEN 0x2a

enum iface { IF_AA, IF_LEGACY, IF_SYS, IF_LIB };
enum subj { S_UNCONFINED, S_BASE, S_TARGET };
enum wattr { A_CURRENT, A_EXEC };
enum form {
	F_CHANGEPROFILE,
	F_PERMPROFILE,
	F_STACK,
	F_EXEC,
	F_CHANGEHAT, /* "changehat 2a^ARG" */
	F_PERMHAT, /* "permhat 2a^ARG" */
	F_HAT_NOCARET, /* "changehat ARG": no token separator */
	F_HAT_NULL, /* "changehat 0^": no hat and token 0 */
	F_HAT_TOKENONLY, /* "changehat 2a^": return to the previous label */
	F_EMPTY, /* a write of 0 bytes */
	F_NOARG, /* "changeprofile" */
	F_UNKNOWN, /* "frobnicate ARG" */
	F_TOOLONG, /* "changeprofile xxx..." of 2 pages */
};
enum arg { ARG_NONE, ARG_BASE, ARG_TARGET, ARG_MISSING, ARG_HAT, ARG_NOHAT };

static const char *const subj_name[] = { "unconfined", BASE, TARGET };
static const char *const arg_name[] = {
	"", BASE, TARGET, MISSING, HAT, "nohat"
};
static const char *const iface_name[] = { "aa", "legacy", "sys", "lib" };

FIXTURE(attr)
{
	bool sys; /* the kernel has lsm_{get,set}_self_attr() */
};

FIXTURE_VARIANT(attr)
{
	enum iface iface;
	enum subj subj;
	enum wattr attr;
	enum form form;
	enum arg arg;
};

/* /proc/self/attr/apparmor/current */
FIXTURE_VARIANT_ADD(attr, aa_unconfined_changeprofile_target) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_changeprofile_missing) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_MISSING,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changeprofile_target) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_target_changeprofile_base) {
	.iface = IF_AA,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, aa_base_permprofile_target) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_PERMPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_target_permprofile_base) {
	.iface = IF_AA,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_PERMPROFILE,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, aa_base_stack_target) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_STACK,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_target_stack_base) {
	.iface = IF_AA,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_STACK,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changehat_hat) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, aa_base_permhat_hat) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_PERMHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changehat_nohat) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_NOHAT,
};

FIXTURE_VARIANT_ADD(attr, aa_target_changehat_hat) {
	.iface = IF_AA,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_changehat_hat) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changehat_nocaret) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_HAT_NOCARET,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changehat_null) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_HAT_NULL,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, aa_base_changehat_tokenonly) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_HAT_TOKENONLY,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, aa_base_exec_target) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_EXEC,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_empty) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_EMPTY,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_noarg) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_NOARG,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_unknown) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_UNKNOWN,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aa_unconfined_toolong) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_TOOLONG,
	.arg = ARG_NONE,
};

/* /proc/self/attr/apparmor/exec */
FIXTURE_VARIANT_ADD(attr, aaexec_unconfined_exec_target) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aaexec_unconfined_exec_missing) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_MISSING,
};

FIXTURE_VARIANT_ADD(attr, aaexec_base_stack_target) {
	.iface = IF_AA,
	.subj = S_BASE,
	.attr = A_EXEC,
	.form = F_STACK,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aaexec_target_exec_base) {
	.iface = IF_AA,
	.subj = S_TARGET,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, aaexec_unconfined_changeprofile_target) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, aaexec_unconfined_empty) {
	.iface = IF_AA,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EMPTY,
	.arg = ARG_NONE,
};

/* /proc/self/attr/{current,exec}: the first LSM with the hook */
FIXTURE_VARIANT_ADD(attr, legacy_unconfined_changeprofile_target) {
	.iface = IF_LEGACY,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, legacy_target_changeprofile_base) {
	.iface = IF_LEGACY,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, legacy_base_changehat_hat) {
	.iface = IF_LEGACY,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, legacy_unconfined_unknown) {
	.iface = IF_LEGACY,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_UNKNOWN,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, legacyexec_unconfined_exec_target) {
	.iface = IF_LEGACY,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_TARGET,
};

/* lsm_set_self_attr() */
FIXTURE_VARIANT_ADD(attr, sys_unconfined_changeprofile_target) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, sys_target_changeprofile_base) {
	.iface = IF_SYS,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, sys_base_changehat_hat) {
	.iface = IF_SYS,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, sys_base_stack_target) {
	.iface = IF_SYS,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_STACK,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, sys_unconfined_empty) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_EMPTY,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, sys_unconfined_unknown) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_UNKNOWN,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, sys_unconfined_toolong) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_TOOLONG,
	.arg = ARG_NONE,
};

FIXTURE_VARIANT_ADD(attr, sysexec_unconfined_exec_target) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, sysexec_unconfined_changeprofile_target) {
	.iface = IF_SYS,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

/* libapparmor: the same commands, written by the library */
FIXTURE_VARIANT_ADD(attr, lib_unconfined_changeprofile_target) {
	.iface = IF_LIB,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, lib_unconfined_changeprofile_missing) {
	.iface = IF_LIB,
	.subj = S_UNCONFINED,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_MISSING,
};

FIXTURE_VARIANT_ADD(attr, lib_target_changeprofile_base) {
	.iface = IF_LIB,
	.subj = S_TARGET,
	.attr = A_CURRENT,
	.form = F_CHANGEPROFILE,
	.arg = ARG_BASE,
};

FIXTURE_VARIANT_ADD(attr, lib_base_changehat_hat) {
	.iface = IF_LIB,
	.subj = S_BASE,
	.attr = A_CURRENT,
	.form = F_CHANGEHAT,
	.arg = ARG_HAT,
};

FIXTURE_VARIANT_ADD(attr, libexec_unconfined_exec_target) {
	.iface = IF_LIB,
	.subj = S_UNCONFINED,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, libexec_base_stack_target) {
	.iface = IF_LIB,
	.subj = S_BASE,
	.attr = A_EXEC,
	.form = F_STACK,
	.arg = ARG_TARGET,
};

FIXTURE_VARIANT_ADD(attr, libexec_target_exec_base) {
	.iface = IF_LIB,
	.subj = S_TARGET,
	.attr = A_EXEC,
	.form = F_EXEC,
	.arg = ARG_BASE,
};
/* What the model says the write does and the readers then show. */
struct attr_expect {
	int write; /* 0 or -errno */
	char current[256]; /* the label text, "name (mode)" */
	char prev[256]; /* "" when there is no previous label */
	char exec[256]; /* "" when no onexec label is set */
};

/* The label text aa_getprocattr() prints for a single profile. */
static void label_text(char *out, size_t size, const char *name)
{
	/*
	 * aa_label_snxprint(FLAG_SHOW_MODE | FLAG_HIDDEN_UNCONFINED):
	 * unconfined prints bare; an enforcing profile as "name (enforce)".
	 * All profiles of this test are in enforce mode.
	 */
	if (!strcmp(name, "unconfined"))
		snprintf(out, size, "unconfined");
	else
		snprintf(out, size, "%s (enforce)", name);
}

static bool has_hat(enum subj s)
{
	/* attr_base.profile declares ^hat1; trivial.profile no hat. */
	return s == S_BASE;
}

static bool may_change_profile(enum subj s)
{
	/*
	 * change_profile_perms(): unconfined may change to any label;
	 * attr_base has "change_profile," (any target); attr_target
	 * (trivial.profile) has no change_profile rule: label_match()
	 * finds no permission, -EACCES.
	 */
	return s != S_TARGET;
}

static void attr_model(const FIXTURE_VARIANT(attr) * v, struct attr_expect *e)
{
	const char *arg = arg_name[v->arg];
	bool cur = v->attr == A_CURRENT;

	memset(e, 0, sizeof(*e));
	label_text(e->current, sizeof(e->current), subj_name[v->subj]);

	/*
	 * Syscall only: security_setselfattr() refuses a struct lsm_ctx
	 * over PAGE_SIZE with -E2BIG before any LSM sees it.
	 */
	if (v->iface == IF_SYS && v->form == F_TOOLONG) {
		e->write = -E2BIG;
		return;
	}
	/* do_setattr(): a value of size 0 is -EINVAL. */
	if (v->form == F_EMPTY) {
		e->write = -EINVAL;
		return;
	}
	/* do_setattr(): "command" with no argument after it is -EINVAL. */
	if (v->form == F_NOARG) {
		e->write = -EINVAL;
		return;
	}
	/*
	 * do_setattr(): current takes changehat, permhat, changeprofile,
	 * permprofile and stack; exec takes exec and stack; any other
	 * command goes to fail: -EINVAL (audited).
	 */
	if (v->form == F_UNKNOWN || (cur && v->form == F_EXEC) ||
	    (!cur && v->form != F_EXEC && v->form != F_STACK)) {
		e->write = -EINVAL;
		return;
	}
	switch (v->form) {
	case F_HAT_NOCARET:
		/* split_token_from_name(): no "^" after the token: -EINVAL. */
		e->write = -EINVAL;
		return;
	case F_HAT_NULL:
		/* aa_setprocattr_changehat(): no hat and token 0: -EINVAL. */
		e->write = -EINVAL;
		return;
	case F_HAT_TOKENONLY:
		/*
		 * aa_change_hat() with count 0 and no previous label: the
		 * return is ignored, 0, nothing changes.
		 */
		return;
	case F_CHANGEHAT:
	case F_PERMHAT:
		/*
		 * aa_change_hat(): unconfined with no child profiles is
		 * -EPERM ("unconfined can not change_hat").
		 */
		if (v->subj == S_UNCONFINED) {
			e->write = -EPERM;
			return;
		}
		/*
		 * change_hat(): the hat is not a child: -ENOENT when the
		 * profile has children ("hat not found"), else -ECHILD
		 * ("no hats defined").
		 */
		if (!has_hat(v->subj) || v->arg != ARG_HAT) {
			e->write = has_hat(v->subj) ? -ENOENT : -ECHILD;
			return;
		}
		/* AA_CHANGE_TEST (permhat): checked, nothing changes. */
		if (v->form == F_PERMHAT)
			return;
		/*
		 * aa_set_current_hat(): the task enters profile//hat, the
		 * label it left becomes its previous one.
		 */
		snprintf(e->prev, sizeof(e->prev), "%s", e->current);
		snprintf(e->current, sizeof(e->current), "%s//%s (enforce)",
			 subj_name[v->subj], HAT);
		return;
	case F_TOOLONG:
		/*
		 * proc_pid_attr_write() cuts the write to PAGE_SIZE;
		 * do_setattr() NUL-terminates it; aa_label_parse() finds no
		 * profile of that name: -ENOENT.
		 */
		e->write = -ENOENT;
		return;
	default:
		break;
	}
	/* changeprofile, permprofile, stack, exec: aa_change_profile(). */
	/* aa_label_parse(): a name no profile has is -ENOENT. */
	if (v->arg == ARG_MISSING) {
		e->write = -ENOENT;
		return;
	}
	/* change_profile_perms_wrapper(), for stacking too: -EACCES. */
	if (!may_change_profile(v->subj)) {
		e->write = -EACCES;
		return;
	}
	/* AA_CHANGE_TEST (permprofile): checked, nothing changes. */
	if (v->form == F_PERMPROFILE)
		return;
	/*
	 * AA_CHANGE_ONEXEC: aa_set_current_onexec() stores the target (not
	 * the stack: that is built at exec); the exec attribute shows it.
	 */
	if (!cur) {
		label_text(e->exec, sizeof(e->exec), arg);
		return;
	}
	/*
	 * Stack: aa_label_merge() of the current label and the target,
	 * profiles in name order, printed "a//&b (enforce)" (one mode:
	 * both enforce). attr_base < attr_target.
	 */
	if (v->form == F_STACK) {
		snprintf(e->current, sizeof(e->current), "%s//&%s (enforce)",
			 strcmp(subj_name[v->subj], arg) < 0 ?
				 subj_name[v->subj] :
				 arg,
			 strcmp(subj_name[v->subj], arg) < 0 ?
				 arg :
				 subj_name[v->subj]);
		return;
	}
	/* aa_replace_current_label(): the task is now the target. */
	label_text(e->current, sizeof(e->current), arg);
}

/* The command text of the case (NULL for the empty write). */
static size_t attr_command(const FIXTURE_VARIANT(attr) * v, char *buf,
			   size_t size)
{
	const char *arg = arg_name[v->arg];
	int n = 0;

	switch (v->form) {
	case F_CHANGEPROFILE:
		n = snprintf(buf, size, "changeprofile %s", arg);
		break;
	case F_PERMPROFILE:
		n = snprintf(buf, size, "permprofile %s", arg);
		break;
	case F_STACK:
		n = snprintf(buf, size, "stack %s", arg);
		break;
	case F_EXEC:
		n = snprintf(buf, size, "exec %s", arg);
		break;
	case F_CHANGEHAT:
		n = snprintf(buf, size, "changehat %x^%s", TOKEN, arg);
		break;
	case F_PERMHAT:
		n = snprintf(buf, size, "permhat %x^%s", TOKEN, arg);
		break;
	case F_HAT_NOCARET:
		n = snprintf(buf, size, "changehat %s", arg);
		break;
	case F_HAT_NULL:
		n = snprintf(buf, size, "changehat 0^");
		break;
	case F_HAT_TOKENONLY:
		n = snprintf(buf, size, "changehat %x^", TOKEN);
		break;
	case F_EMPTY:
		n = 0;
		buf[0] = '\0';
		break;
	case F_NOARG:
		n = snprintf(buf, size, "changeprofile");
		break;
	case F_UNKNOWN:
		n = snprintf(buf, size, "frobnicate %s", arg);
		break;
	case F_TOOLONG:
		/* Two pages: "changeprofile " and 'x' to the end. */
		n = snprintf(buf, size, "changeprofile ");
		memset(buf + n, 'x', size - 1 - n);
		buf[size - 1] = '\0';
		n = size - 1;
		break;
	}
	return n;
}

/* One write to a proc attribute file: 0 when all of it was taken. */
static int proc_write(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* A proc attribute read whole, its one trailing newline dropped. */
static int proc_read(const char *path, char *out, size_t size)
{
	ssize_t n = read_text(path, out, size);

	if (n < 0)
		return n;
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return 0;
}

/* What the child saw. */
struct attr_report {
	int enter; /* entering the subject label: 0 or -errno */
	int write;
	int got_err[4]; /* per reader: 0 (text read) or -errno */
	char got[4][256];
};

enum { R_GETCON, R_CURRENT, R_PREV, R_EXEC };
static const char *const reader_op[2][4] = {
	{ "aa_getcon", "self.apparmor.current", "self.apparmor.prev",
	  "self.apparmor.exec" },
	{ "-", "lsm_get_self_attr.current", "lsm_get_self_attr.prev",
	  "lsm_get_self_attr.exec" },
};

static int do_write(const FIXTURE_VARIANT(attr) * v, const char *cmd,
		    size_t len)
{
	bool cur = v->attr == A_CURRENT;
	const char *arg = arg_name[v->arg];

	switch (v->iface) {
	case IF_AA:
		return proc_write(cur ? "/proc/self/attr/apparmor/current" :
					"/proc/self/attr/apparmor/exec",
				  cmd, len);
	case IF_LEGACY:
		return proc_write(cur ? "/proc/self/attr/current" :
					"/proc/self/attr/exec",
				  cmd, len);
	case IF_SYS:
		return lsm_self_attr_set(LSM_SELF_ID_APPARMOR,
					 cur ? LSM_SELF_ATTR_CURRENT :
					       LSM_SELF_ATTR_EXEC,
					 cmd, len, true);
	case IF_LIB:
		/*
		 * libapparmor writes the same commands ("changeprofile N",
		 * "changehat %016lx^H", "exec N", "stack N") to
		 * /proc/self/attr/apparmor/{current,exec}, -1 and errno.
		 */
		if (v->form == F_CHANGEHAT)
			return aa_change_hat(arg, TOKEN) ? -errno : 0;
		if (v->form == F_CHANGEPROFILE)
			return aa_change_profile(arg) ? -errno : 0;
		if (v->form == F_EXEC)
			return aa_change_onexec(arg) ? -errno : 0;
		if (v->form == F_STACK)
			return aa_stack_onexec(arg) ? -errno : 0;
		return -ENOTSUP;
	}
	return -ENOTSUP;
}

/* The child: enter the subject, write, read back, report, wait. */
static void attr_child(const FIXTURE_VARIANT(attr) * v, int out, int in)
{
	static char cmd[8192];
	struct attr_report r;
	size_t len = attr_command(v, cmd, sizeof(cmd));
	char *con = NULL, *mode = NULL, go;
	int i;

	memset(&r, 0, sizeof(r));
	if (v->subj != S_UNCONFINED && aa_change_profile(subj_name[v->subj]))
		r.enter = -errno;
	r.write = r.enter ? NOT_RUN : do_write(v, cmd, len);
	if (v->iface != IF_SYS) {
		if (aa_getcon(&con, &mode) < 0) {
			r.got_err[R_GETCON] = -errno;
		} else {
			if (mode)
				snprintf(r.got[R_GETCON], sizeof(r.got[0]),
					 "%s (%s)", con, mode);
			else
				snprintf(r.got[R_GETCON], sizeof(r.got[0]),
					 "%s", con);
			free(con);
		}
		r.got_err[R_CURRENT] =
			proc_read("/proc/self/attr/apparmor/current",
				  r.got[R_CURRENT], sizeof(r.got[0]));
		r.got_err[R_PREV] = proc_read("/proc/self/attr/apparmor/prev",
					      r.got[R_PREV], sizeof(r.got[0]));
		r.got_err[R_EXEC] = proc_read("/proc/self/attr/apparmor/exec",
					      r.got[R_EXEC], sizeof(r.got[0]));
	} else {
		static const unsigned int attrs[] = { 0, LSM_SELF_ATTR_CURRENT,
						      LSM_SELF_ATTR_PREV,
						      LSM_SELF_ATTR_EXEC };

		for (i = R_CURRENT; i <= R_EXEC; i++)
			r.got_err[i] = lsm_self_attr_get(LSM_SELF_ID_APPARMOR,
							 attrs[i], r.got[i],
							 sizeof(r.got[0]));
	}
	if (pipe_write(out, &r, sizeof(r)))
		_exit(2);
	/* Alive until the test has read /proc/PID/attr/current. */
	pipe_read(in, &go, 1, PEER_WAIT_MS);
	_exit(0);
}

/* Loads both labels once per run (harness_main.h removes them). */
static int attr_load(struct __test_metadata *_metadata)
{
	static const struct aa_policy_src src[] = {
		{ "attr_base", NULL, "attr_base" },
		{ "trivial", NULL, "attr_target" },
	};
	struct aa_policy p;
	int i, ret;

	/* One parser run for both (its start-up costs most under TCG). */
	aa_policy_build_all(ABI, src, 2);
	for (i = 0; i < 2; i++) {
		ret = aa_policy_share(_metadata, &p, src[i].tmpl, ABI, NULL,
				      src[i].tag, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

FIXTURE_SETUP(attr)
{
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	ret = attr_load(_metadata);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	self->sys = lsm_self_attr_present();
	if (variant->iface == IF_SYS && !self->sys)
		SKIP(return,
			   "no lsm_set_self_attr()/lsm_get_self_attr() (Linux 6.8+)");
	if (aa_feature("domain/change_hat") != 1 ||
	    aa_feature("domain/stack") != 1 ||
	    aa_feature("domain/change_onexec") != 1)
		SKIP(return,
			   "the kernel lacks domain/change_hat, stack or change_onexec");
}

FIXTURE_TEARDOWN(attr)
{
}

static void judge_text(struct __test_metadata *_metadata,
		       const FIXTURE_VARIANT(attr) * v, const char *op,
		       const char *want, int err, const char *got,
		       int absent_err)
{
	struct record rec = {
		.abi = ABI,
		.subject = subj_name[v->subj],
		.object = iface_name[v->iface],
		.class = v->attr == A_CURRENT ? "current" : "exec",
		.detail = *want ? want : "-",
		.op = op,
		.depends = "-",
		/* Nothing to show: the reader's own errno (absent_err). */
		.expected = *want ? 0 : absent_err,
		.observed = err ? err : (!strcmp(want, got) ? 0 : -EPROTO),
	};

	if (!err && *want && strcmp(want, got))
		TH_LOG("%s: expected \"%s\", read \"%s\"", op, want, got);
	if (!err && !*want)
		TH_LOG("%s: expected %s, read \"%s\"", op,
		       outcome_name(absent_err), got);
	JUDGE(&rec);
}

TEST_F_TIMEOUT(attr, decisions, 30)
{
	struct attr_expect e;
	struct attr_report r;
	char path[64], peer[256];
	int to_test[2], to_child[2], peer_err;
	bool sys = variant->iface == IF_SYS;
	pid_t pid;

	attr_model(variant, &e);
	ASSERT_EQ(0, pipe2(to_test, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(to_child, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		attr_child(variant, to_test[1], to_child[0]);
	ASSERT_EQ(0, pipe_read(to_test[0], &r, sizeof(r), PEER_WAIT_MS));
	snprintf(path, sizeof(path), "/proc/%d/attr/current", pid);
	peer_err = proc_read(path, peer, sizeof(peer));
	pipe_write(to_child[1], "g", 1);
	peer_reap(pid);
	ASSERT_EQ(0, r.enter)
	{
		TH_LOG("entering %s: %s", subj_name[variant->subj],
		       strerror(-r.enter));
	}

	{
		struct record rec = {
			.abi = ABI,
			.subject = subj_name[variant->subj],
			.object = iface_name[variant->iface],
			.class =
				variant->attr == A_CURRENT ? "current" : "exec",
			.detail = "-",
			/* named after the hook's call: setselfattr's */
			.op = sys ? "lsm_set_self_attr" : "write",
			.depends = "-",
			.expected = e.write,
			.observed = r.write,
		};

		JUDGE(&rec);
	}
	/*
	 * Readers. A proc read of prev or exec with nothing set is -EINVAL
	 * (apparmor_getprocattr(): the name matches no branch that has a
	 * label); lsm_get_self_attr() says -ENOENT (apparmor_getselfattr():
	 * no label, error stays -ENOENT).
	 */
	if (!sys)
		judge_text(_metadata, variant, reader_op[0][R_GETCON],
			   e.current, r.got_err[R_GETCON], r.got[R_GETCON], 0);
	judge_text(_metadata, variant, reader_op[sys][R_CURRENT], e.current,
		   r.got_err[R_CURRENT], r.got[R_CURRENT], 0);
	judge_text(_metadata, variant, reader_op[sys][R_PREV], e.prev,
		   r.got_err[R_PREV], r.got[R_PREV], sys ? -ENOENT : -EINVAL);
	judge_text(_metadata, variant, reader_op[sys][R_EXEC], e.exec,
		   r.got_err[R_EXEC], r.got[R_EXEC], sys ? -ENOENT : -EINVAL);
	/* Another task reads the same label (apparmor_getprocattr()). */
	judge_text(_metadata, variant, "peer.proc.current", e.current, peer_err,
		   peer, 0);
	close(to_test[0]);
	close(to_test[1]);
	close(to_child[0]);
	close(to_child[1]);
}

AA_HARNESS_MAIN
