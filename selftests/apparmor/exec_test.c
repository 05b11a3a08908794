// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor exec transitions (issue #23).
 *
 * Each case is one execve() by a forked child in a known label of a hard
 * link to this very binary; the exec'd program (helper mode, below) reports
 * over an inherited pipe the label it runs in (aa_getcon()) and
 * getauxval(AT_SECURE). Forms: ix, px/Px, cx/Cx, ux/Ux, the fallbacks
 * pix/Pix, pux/Pux, cix, cux (target present and missing), named targets
 * (px -> profile, Cx -> child), a missing target without fallback, no x
 * rule at all, attachment by path (an unconfined exec, an ix that ignores
 * it), by xattr (a condition met, a value it does not name, the xattr
 * absent: copies of the binary, an xattr being the inode's) and a tie of
 * two attachments, a stacked task A//&B, and aa_change_onexec() /
 * aa_stack_onexec() from an unconfined task followed by an exec; some of
 * these again under no_new_privs.
 *
 * Every profile is written from the case table at run time (exec_rules()):
 * the x rule of a source case names its own link under EXEC_DIR, so the
 * policy and the model read the same table.
 *
 * Records: "exec" (allow or -errno), and when the exec is expected to
 * succeed "label" and "at_secure": expected allow, observed allow when the
 * helper reports the model's text, -EPROTO when another (both logged).
 * The model is exec_model(); each rule names the function of
 * security/apparmor/domain.c that implements it.
 */

#define _GNU_SOURCE
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "harness_main.h"

#define ABI "5.0"
#define SRC AA_TEST_PREFIX "exec"
#define ATTACHED AA_TEST_PREFIX "exec_attached"
#define TARGET AA_TEST_PREFIX "exec_target"
#define STACK_A AA_TEST_PREFIX "exec_stack_a"
#define STACK_B AA_TEST_PREFIX "exec_stack_b"
#define NOSUCH AA_TEST_PREFIX "exec_nosuch"
#define XATTACHED AA_TEST_PREFIX "exec_xattr"
#define XPLAIN AA_TEST_PREFIX "exec_xplain"
#define XCONF_A AA_TEST_PREFIX "exec_xconf_a"
#define XCONF_B AA_TEST_PREFIX "exec_xconf_b"
/* The attachment condition of XATTACHED: this xattr with this value. */
#define XATTR_NAME "trusted.lsmconf_t"
#define XATTR_VALUE "yes"
#define REPORT_ENV "LSMCONF_EXEC_REPORT"
#define REPORT_MAGIC 0x65786563

/* Who execs. */
enum subj {
	S_UNCONFINED, /* no label change */
	S_SRC, /* aa_change_profile(SRC) */
	S_STACK, /* aa_change_profile(STACK_A), aa_stack_profile(STACK_B) */
	S_ONEXEC, /* unconfined, aa_change_onexec(TARGET) */
	S_STACKONEXEC, /* unconfined, aa_stack_onexec(TARGET) */
	S_SRCONEXEC, /* SRC, aa_change_onexec(TARGET) */
};
static const char *const subj_name[] = {
	"unconfined",
	SRC,
	STACK_A "//&" STACK_B,
	"unconfined+onexec",
	"unconfined+stack_onexec",
	SRC "+onexec",
};

/* The x rule of SRC for the case's file (S_SRC cases only). */
enum form {
	X_NONE, /* no rule names the file */
	X_IX,
	X_PX, /* lower case: unsafe, upper case: safe */
	X_PX_SAFE,
	X_CX,
	X_CX_SAFE,
	X_UX,
	X_UX_SAFE,
	X_PIX,
	X_PIX_SAFE,
	X_PUX,
	X_PUX_SAFE,
	X_CIX,
	X_CUX,
};
static const char *const form_text[] = {
	"-",  "ix",  "px",  "Px",  "cx",  "Cx",	 "ux",
	"Ux", "pix", "Pix", "pux", "Pux", "cix", "cux",
};

FIXTURE(exec)
{
	char dir[64];
};

FIXTURE_VARIANT(exec)
{
	enum subj subj;
	enum form form;
	/* The link under EXEC_DIR that is exec'd. */
	const char *file;
	/* A named target ("px -> NAME", "Cx -> NAME"), or NULL. */
	const char *named;
	/* PR_SET_NO_NEW_PRIVS after entering the subject, before the exec. */
	bool nnp;
};

/*
 * The file names say what the policy holds for them (exec_rules()):
 * tgt_* is attached by ATTACHED (a top-level profile); ch_* by SRC's
 * child "child"; miss_* by nothing; SRC has a child "named".
 */
FIXTURE_VARIANT_ADD(exec, src_ix) {
	.subj = S_SRC,
	.form = X_IX,
	.file = "ix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_px) {
	.subj = S_SRC,
	.form = X_PX,
	.file = "tgt_px",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Px) {
	.subj = S_SRC,
	.form = X_PX_SAFE,
	.file = "tgt_Px",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_cx) {
	.subj = S_SRC,
	.form = X_CX,
	.file = "ch_cx",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Cx) {
	.subj = S_SRC,
	.form = X_CX_SAFE,
	.file = "ch_Cx",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_ux) {
	.subj = S_SRC,
	.form = X_UX,
	.file = "ux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Ux) {
	.subj = S_SRC,
	.form = X_UX_SAFE,
	.file = "Ux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_pix_present) {
	.subj = S_SRC,
	.form = X_PIX,
	.file = "tgt_pix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Pix_present) {
	.subj = S_SRC,
	.form = X_PIX_SAFE,
	.file = "tgt_Pix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_pix_missing) {
	.subj = S_SRC,
	.form = X_PIX,
	.file = "miss_pix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Pix_missing) {
	.subj = S_SRC,
	.form = X_PIX_SAFE,
	.file = "miss_Pix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_pux_missing) {
	.subj = S_SRC,
	.form = X_PUX,
	.file = "miss_pux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Pux_missing) {
	.subj = S_SRC,
	.form = X_PUX_SAFE,
	.file = "miss_Pux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_Pux_present) {
	.subj = S_SRC,
	.form = X_PUX_SAFE,
	.file = "tgt_Pux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_cix_missing) {
	.subj = S_SRC,
	.form = X_CIX,
	.file = "miss_cix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_cux_missing) {
	.subj = S_SRC,
	.form = X_CUX,
	.file = "miss_cux",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_px_named) {
	.subj = S_SRC,
	.form = X_PX,
	.file = "named_px",
	.named = TARGET,
};

FIXTURE_VARIANT_ADD(exec, src_Px_named) {
	.subj = S_SRC,
	.form = X_PX_SAFE,
	.file = "named_Px",
	.named = TARGET,
};

FIXTURE_VARIANT_ADD(exec, src_Cx_named) {
	.subj = S_SRC,
	.form = X_CX_SAFE,
	.file = "named_Cx",
	.named = "named",
};

FIXTURE_VARIANT_ADD(exec, src_px_missing) {
	.subj = S_SRC,
	.form = X_PX,
	.file = "miss_px",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_px_named_missing) {
	.subj = S_SRC,
	.form = X_PX,
	.file = "miss_named",
	.named = NOSUCH,
};

FIXTURE_VARIANT_ADD(exec, src_Cx_named_missing) {
	.subj = S_SRC,
	.form = X_CX_SAFE,
	.file = "miss_named_Cx",
	.named = "nochild",
};

FIXTURE_VARIANT_ADD(exec, src_noexec) {
	.subj = S_SRC,
	.form = X_NONE,
	.file = "nox",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_ix_attached) {
	.subj = S_SRC,
	.form = X_IX,
	.file = "tgt_ix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, unconfined_attached) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "tgt_att",
	.named = NULL,
};

/* XATTACHED: the path, and the condition met */
FIXTURE_VARIANT_ADD(exec, unconfined_xattr_match) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "xat_yes",
	.named = NULL,
};

/* XPLAIN: XATTACHED ruled out by the value */
FIXTURE_VARIANT_ADD(exec, unconfined_xattr_other_value) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "xat_other",
	.named = NULL,
};

/* XPLAIN: XATTACHED ruled out by the absent xattr */
FIXTURE_VARIANT_ADD(exec, unconfined_xattr_absent) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "xat_none",
	.named = NULL,
};

/* unconfined: XCONF_A and XCONF_B tie */
FIXTURE_VARIANT_ADD(exec, unconfined_attach_conflict) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "xcf",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, unconfined_plain) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "plain",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, stack_ix) {
	.subj = S_STACK,
	.form = X_NONE,
	.file = "stk_ix",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, stack_one_denies) {
	.subj = S_STACK,
	.form = X_NONE,
	.file = "stk_deny",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, stack_Px_ix) {
	.subj = S_STACK,
	.form = X_NONE,
	.file = "stk_px",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, onexec_plain) {
	.subj = S_ONEXEC,
	.form = X_NONE,
	.file = "plain",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, onexec_attached) {
	.subj = S_ONEXEC,
	.form = X_NONE,
	.file = "tgt_att",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, stack_onexec_plain) {
	.subj = S_STACKONEXEC,
	.form = X_NONE,
	.file = "plain",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_onexec_safe) {
	.subj = S_SRCONEXEC,
	.form = X_NONE,
	.file = "oe_safe",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_onexec_unsafe) {
	.subj = S_SRCONEXEC,
	.form = X_NONE,
	.file = "oe_unsafe",
	.named = NULL,
};

FIXTURE_VARIANT_ADD(exec, src_onexec_other) {
	.subj = S_SRCONEXEC,
	.form = X_NONE,
	.file = "oe_other",
	.named = NULL,
};

/*
 * The same execs under no_new_privs (the subject's rules come from the
 * cases above: these add none).
 */
/* SRC kept: allowed */
FIXTURE_VARIANT_ADD(exec, nnp_src_ix) {
	.subj = S_SRC,
	.form = X_IX,
	.file = "ix",
	.nnp = true,
};

/* SRC dropped: EPERM */
FIXTURE_VARIANT_ADD(exec, nnp_src_Px) {
	.subj = S_SRC,
	.form = X_PX_SAFE,
	.file = "tgt_Px",
	.nnp = true,
};

/* SRC dropped for unconfined: EPERM */
FIXTURE_VARIANT_ADD(exec, nnp_src_Ux) {
	.subj = S_SRC,
	.form = X_UX_SAFE,
	.file = "Ux",
	.nnp = true,
};

/* unconfined is never refused: ATTACHED */
FIXTURE_VARIANT_ADD(exec, nnp_unconfined_attached) {
	.subj = S_UNCONFINED,
	.form = X_NONE,
	.file = "tgt_att",
	.nnp = true,
};

/* both kept: allowed */
FIXTURE_VARIANT_ADD(exec, nnp_stack_ix) {
	.subj = S_STACK,
	.form = X_NONE,
	.file = "stk_ix",
	.nnp = true,
};

/* STACK_A dropped: EPERM */
FIXTURE_VARIANT_ADD(exec, nnp_stack_Px_ix) {
	.subj = S_STACK,
	.form = X_NONE,
	.file = "stk_px",
	.nnp = true,
};

/* onexec drops SRC: EPERM */
FIXTURE_VARIANT_ADD(exec, nnp_src_onexec_safe) {
	.subj = S_SRCONEXEC,
	.form = X_NONE,
	.file = "oe_safe",
	.nnp = true,
};

/* Every link the cases exec (exec_links()). */
static const char *const link_names[] = {
	"ix",	      "tgt_px",
	"tgt_Px",     "ch_cx",
	"ch_Cx",      "ux",
	"Ux",	      "tgt_pix",
	"tgt_Pix",    "miss_pix",
	"miss_Pix",   "miss_pux",
	"miss_Pux",   "tgt_Pux",
	"miss_cix",   "miss_cux",
	"named_px",   "named_Px",
	"named_Cx",   "miss_px",
	"miss_named", "miss_named_Cx",
	"nox",	      "tgt_ix",
	"tgt_att",    "plain",
	"stk_ix",     "stk_deny",
	"stk_px",     "oe_safe",
	"oe_unsafe",  "oe_other",
	"xcf",
};

/*
 * Copies of this binary (an xattr is the inode's: no hard links), each
 * with XATTR_NAME set to its value or, NULL, left without it.
 */
static const struct {
	const char *name, *value;
} xattr_files[] = {
	{ "xat_yes", XATTR_VALUE },
	{ "xat_other", "no" },
	{ "xat_none", NULL },
};

/* What the model says the exec does and the helper then reports. */
struct exec_expect {
	int exec; /* 0 or -errno */
	char label[256];
	int secure; /* getauxval(AT_SECURE) */
};

/* aa_label_snxprint(FLAG_SHOW_MODE | FLAG_HIDDEN_UNCONFINED). */
static void label_text(char *out, size_t size, const char *name)
{
	/* Unconfined prints bare; every profile here enforces. */
	if (!strcmp(name, "unconfined"))
		snprintf(out, size, "unconfined");
	else
		snprintf(out, size, "%s (enforce)", name);
}

static bool form_safe(enum form f)
{
	/* Upper case: the parser leaves AA_X_UNSAFE out of the xindex. */
	return f == X_PX_SAFE || f == X_CX_SAFE || f == X_UX_SAFE ||
	       f == X_PIX_SAFE || f == X_PUX_SAFE;
}

/* The label a p or c transition finds, or NULL when it finds none. */
static const char *lookup_target(const FIXTURE_VARIANT(exec) * v, bool child,
				 char *buf, size_t size)
{
	/*
	 * x_table_lookup(): a named target is looked up by name
	 * (aa_find_child() for c, aa_label_parse() for p); only "named"
	 * (child) and TARGET exist.
	 */
	if (v->named) {
		if (child && !strcmp(v->named, "named")) {
			snprintf(buf, size, "%s//named", SRC);
			return buf;
		}
		if (!child && !strcmp(v->named, TARGET))
			return TARGET;
		return NULL;
	}
	/*
	 * AA_X_NAME: find_attach() over the namespace's profiles (p) or
	 * SRC's children (c): ATTACHED attaches tgt_*, the child "child"
	 * ch_*.
	 */
	if (!child && !strncmp(v->file, "tgt_", 4))
		return ATTACHED;
	if (child && !strncmp(v->file, "ch_", 3)) {
		snprintf(buf, size, "%s//child", SRC);
		return buf;
	}
	return NULL;
}

static void src_model(const FIXTURE_VARIANT(exec) * v, struct exec_expect *e)
{
	char buf[128];
	const char *to = NULL;
	bool child = v->form == X_CX || v->form == X_CX_SAFE ||
		     v->form == X_CIX || v->form == X_CUX;
	bool inherit =
		v->form == X_PIX || v->form == X_PIX_SAFE || v->form == X_CIX;
	bool unconf =
		v->form == X_PUX || v->form == X_PUX_SAFE || v->form == X_CUX;

	switch (v->form) {
	case X_NONE:
		/* profile_transition(): no MAY_EXEC, not complain: -EACCES. */
		e->exec = -EACCES;
		return;
	case X_IX:
		/*
		 * x_to_label(): AA_X_NONE with AA_X_INHERIT is the "ix
		 * fallback" to the same label; profile_transition() then
		 * jumps to audit before setting AT_SECURE. Attachment is
		 * never consulted (find_attach() runs for AA_X_NAME only).
		 */
		label_text(e->label, sizeof(e->label), SRC);
		return;
	case X_UX:
	case X_UX_SAFE:
		/*
		 * x_to_label(): AA_X_UNCONFINED, the namespace's unconfined;
		 * a new label, so profile_transition() sets AT_SECURE unless
		 * AA_X_UNSAFE (lower case).
		 */
		label_text(e->label, sizeof(e->label), "unconfined");
		e->secure = form_safe(v->form);
		return;
	default:
		break;
	}
	to = lookup_target(v, child, buf, sizeof(buf));
	if (to) {
		/* profile_transition(): AT_SECURE unless AA_X_UNSAFE. */
		label_text(e->label, sizeof(e->label), to);
		e->secure = form_safe(v->form);
		return;
	}
	if (inherit) {
		/*
		 * x_to_label(): no target, AA_X_INHERIT: the same label
		 * ("ix fallback"); profile_transition() sees the same proxy
		 * with info set and jumps to audit: no AT_SECURE, even for
		 * Pix.
		 */
		label_text(e->label, sizeof(e->label), SRC);
		return;
	}
	if (unconf) {
		/*
		 * x_to_label(): no target, AA_X_UNCONFINED: unconfined ("ux
		 * fallback"), a new label: AT_SECURE unless AA_X_UNSAFE.
		 */
		label_text(e->label, sizeof(e->label), "unconfined");
		e->secure = form_safe(v->form);
		return;
	}
	/*
	 * profile_transition(): x_to_label() found nothing and no fallback:
	 * "profile transition not found", -EACCES.
	 */
	e->exec = -EACCES;
}

/*
 * What find_attach() picks for an unconfined exec of @v->file in @d: the
 * profile whose attachment matches the path (tgt_*: ATTACHED); of two
 * matching it equally well (xat_*: XATTACHED and XPLAIN), the one with
 * more of its xattr conditions matched, where a condition not met (a
 * value the rule does not name, an xattr absent) rules the profile out
 * (aa_xattrs_match() < 0); two that tie (xcf*: XCONF_A, XCONF_B) are a
 * conflict: no attachment, so unconfined. The file's xattr is read here,
 * as the filesystem keeps it.
 */
static const char *unconfined_attach(const FIXTURE_VARIANT(exec) * v,
				     const char *d)
{
	char path[PATH_MAX], value[16];
	ssize_t n;

	if (!strncmp(v->file, "tgt_", 4))
		return ATTACHED;
	if (strncmp(v->file, "xat_", 4))
		return "unconfined";
	snprintf(path, sizeof(path), "%s/%s", d, v->file);
	n = getxattr(path, XATTR_NAME, value, sizeof(value) - 1);
	if (n < 0)
		return XPLAIN;
	value[n] = '\0';
	return strcmp(value, XATTR_VALUE) ? XPLAIN : XATTACHED;
}

static void exec_model(const FIXTURE_VARIANT(exec) * v, const char *d,
		       struct exec_expect *e)
{
	memset(e, 0, sizeof(*e));
	/*
	 * The test runs as root with no set-id binary: commoncap never
	 * asks for AT_SECURE (cap_bprm_creds_from_file()); only AppArmor
	 * sets bprm->secureexec below.
	 */
	switch (v->subj) {
	case S_SRC:
		src_model(v, e);
		return;
	case S_UNCONFINED:
		/*
		 * profile_transition() of unconfined: find_attach() over the
		 * namespace's profiles; the attached profile, or unconfined.
		 * Returns before AT_SECURE is considered.
		 */
		label_text(e->label, sizeof(e->label), unconfined_attach(v, d));
		return;
	case S_STACK:
		/*
		 * fn_label_build(): profile_transition() of each component
		 * on its own rules; one error fails the exec
		 * (apparmor_bprm_creds_for_exec()), the labels are merged
		 * (sorted by name, aa_label_merge()), and one component's
		 * AT_SECURE is the exec's.
		 *   stk_ix:   A ix, B ix          -> A//&B
		 *   stk_deny: A ix, B no x rule   -> -EACCES (B)
		 *   stk_px:   A Px -> TARGET, B ix -> B//&TARGET, AT_SECURE
		 */
		if (!strcmp(v->file, "stk_deny")) {
			e->exec = -EACCES;
		} else if (!strcmp(v->file, "stk_px")) {
			label_text(e->label, sizeof(e->label),
				   STACK_B "//&" TARGET);
			e->secure = 1;
		} else {
			label_text(e->label, sizeof(e->label),
				   STACK_A "//&" STACK_B);
		}
		return;
	case S_ONEXEC:
		/*
		 * handle_onexec(): onexec overrides every x transition and
		 * attachment; profile_onexec() of unconfined allows without
		 * AT_SECURE; priv_restricted_transition(): root holds
		 * CAP_MAC_OVERRIDE, so the target itself.
		 */
		label_text(e->label, sizeof(e->label), TARGET);
		return;
	case S_STACKONEXEC:
		/*
		 * handle_onexec() with stack: label_merge_wrap() of
		 * unconfined and the target, kept as a component and sorted
		 * by name; its mode is the target's (label_modename() skips
		 * unconfined).
		 */
		snprintf(e->label, sizeof(e->label),
			 "%s//&unconfined (enforce)", TARGET);
		return;
	case S_SRCONEXEC:
		/*
		 * The onexec write (part of entering the subject, not a
		 * record): SRC's "change_profile [safe|unsafe] PATH -> TARGET"
		 * rules grant TARGET (change_profile_perms_wrapper() in
		 * aa_change_profile()). At the exec, handle_onexec() ->
		 * profile_onexec(): the exec'd path must carry AA_MAY_ONEXEC
		 * (a change_profile rule whose exec condition names it), else
		 * "no change_onexec valid for executable" refuses the exec
		 * (its error starts as -EACCES); then the target, with
		 * AT_SECURE unless the rule is "unsafe" (AA_X_UNSAFE).
		 *   oe_safe:   change_profile safe oe_safe -> TARGET
		 *   oe_unsafe: change_profile unsafe oe_unsafe -> TARGET
		 *   oe_other:  no change_profile rule names it
		 */
		if (!strcmp(v->file, "oe_other")) {
			e->exec = -EACCES;
			return;
		}
		label_text(e->label, sizeof(e->label), TARGET);
		e->secure = !strcmp(v->file, "oe_safe");
		return;
	}
}

/* Whether label text @label (A//&B (mode)) holds profile @name. */
static bool label_holds(const char *label, const char *name)
{
	size_t n = strlen(name);
	const char *p = label;

	for (;;) {
		if (!strncmp(p, name, n) &&
		    (!p[n] || p[n] == ' ' || !strncmp(p + n, "//&", 3)))
			return true;
		p = strstr(p, "//&");
		if (!p)
			return false;
		p += 3;
	}
}

/*
 * no_new_privs (apparmor_bprm_creds_for_exec()): a confined task's exec
 * must keep every profile of the label it had when no_new_privs was set
 * (ctx->nnp; aa_label_is_unconfined_subset(new, nnp)), else -EPERM; an
 * unconfined task's exec is never refused for it.
 */
static void nnp_model(const FIXTURE_VARIANT(exec) * v, struct exec_expect *e)
{
	static const char *const held[][2] = {
		[S_SRC] = { SRC, NULL },
		[S_STACK] = { STACK_A, STACK_B },
		[S_SRCONEXEC] = { SRC, NULL },
	};
	int i;

	if (!v->nnp || e->exec || v->subj == S_UNCONFINED ||
	    v->subj == S_ONEXEC || v->subj == S_STACKONEXEC)
		return;
	for (i = 0; i < 2; i++)
		if (held[v->subj][i] &&
		    !label_holds(e->label, held[v->subj][i]))
			e->exec = -EPERM;
}

/* One profile body's common rules: what the helper needs once exec'd. */
#define BODY "  /** rwlkm,\n  signal,\n  capability,\n  network,\n  unix,\n"

/* All profiles (profiles/exec.profile's @RULES@) for directory @d. */
static int exec_rules(const char *d, char *out, size_t size)
{
	const struct __fixture_variant_metadata *v;
	size_t n = 0;

#define ADD(...)                                                   \
	do {                                                       \
		int _l = snprintf(out + n, size - n, __VA_ARGS__); \
		if (_l < 0 || (size_t)_l >= size - n)              \
			return -ENAMETOOLONG;                      \
		n += _l;                                           \
	} while (0)

	ADD("profile %s {\n" BODY, SRC);
	/* One x rule per source case, from the case table. */
	for (v = _exec_fixture_object.variant; v; v = v->next) {
		const FIXTURE_VARIANT(exec) *c = v->data;

		if (c->subj != S_SRC || c->form == X_NONE || c->nnp)
			continue;
		if (c->named)
			ADD("  %s/%s %s -> %s,\n", d, c->file,
			    form_text[c->form], c->named);
		else
			ADD("  %s/%s %s,\n", d, c->file, form_text[c->form]);
	}
	ADD("  change_profile safe %s/oe_safe -> %s,\n", d, TARGET);
	ADD("  change_profile unsafe %s/oe_unsafe -> %s,\n", d, TARGET);
	ADD("\n  profile child %s/ch_* {\n" BODY "  }\n", d);
	ADD("\n  profile named {\n" BODY "  }\n}\n\n");
	ADD("profile %s %s/tgt_* {\n" BODY "}\n\n", ATTACHED, d);
	ADD("profile %s %s/xat_* xattrs=(%s=%s) {\n" BODY "}\n\n", XATTACHED, d,
	    XATTR_NAME, XATTR_VALUE);
	ADD("profile %s %s/xat_* {\n" BODY "}\n\n", XPLAIN, d);
	ADD("profile %s %s/xcf* {\n" BODY "}\n\n", XCONF_A, d);
	ADD("profile %s %s/xcf* {\n" BODY "}\n\n", XCONF_B, d);
	ADD("profile %s {\n" BODY "}\n\n", TARGET);
	ADD("profile %s {\n" BODY "  change_profile,\n"
	    "  %s/stk_ix ix,\n  %s/stk_deny ix,\n"
	    "  %s/stk_px Px -> %s,\n}\n\n",
	    STACK_A, d, d, d, TARGET);
	ADD("profile %s {\n" BODY "  %s/stk_ix ix,\n  %s/stk_px ix,\n}\n",
	    STACK_B, d, d);
#undef ADD
	return 0;
}

/* What the exec'd helper (or the child whose exec failed) reports. */
struct exec_report {
	int magic;
	int enter; /* entering the subject label: 0 or -errno */
	int exec; /* 0 (the helper reports) or the execve()'s -errno */
	int getcon; /* aa_getcon(): 0 or -errno */
	char label[256];
	unsigned long secure;
};

/*
 * Helper mode: the exec'd link of this binary, with REPORT_ENV=FD. Runs
 * before main(), reports, and never returns.
 */
static void __attribute__((constructor)) exec_helper(void)
{
	const char *env = getenv(REPORT_ENV);
	struct exec_report r;
	char *con = NULL, *mode = NULL;
	int fd;

	if (!env)
		return;
	memset(&r, 0, sizeof(r));
	r.magic = REPORT_MAGIC;
	fd = atoi(env);
	r.secure = getauxval(AT_SECURE);
	if (aa_getcon(&con, &mode) < 0) {
		r.getcon = -errno;
	} else {
		if (mode)
			snprintf(r.label, sizeof(r.label), "%s (%s)", con,
				 mode);
		else
			snprintf(r.label, sizeof(r.label), "%s", con);
		free(con);
	}
	_exit(pipe_write(fd, &r, sizeof(r)) ? 91 : 0);
}

/* The directory of links: one per boot and user, made by exec_links(). */
static void exec_dir(char *d, size_t size)
{
	snprintf(d, size, "/tmp/lsmconf-exec-%u", getuid());
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, n)) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	return ret;
}

/*
 * Makes @d/.self a copy of this binary (once per build of it: .stamp
 * holds its device, inode, size and mtime) and every link_names entry a
 * hard link to it: one path per x rule, all in one directory.
 */
static int exec_links(const char *d)
{
	char self[PATH_MAX], path[PATH_MAX], stamp[128], old[128] = "";
	struct stat st;
	size_t i;
	int ret;

	if (stat("/proc/self/exe", &st))
		return -errno;
	snprintf(stamp, sizeof(stamp), "%lu:%lu:%lld:%lld",
		 (unsigned long)st.st_dev, (unsigned long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtime);
	if (mkdir(d, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/.stamp", d);
	read_text(path, old, sizeof(old));
	if (!strcmp(old, stamp))
		return 0;
	snprintf(self, sizeof(self), "%s/.self", d);
	unlink(self);
	ret = copy_file("/proc/self/exe", self);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(link_names); i++) {
		snprintf(path, sizeof(path), "%s/%s", d, link_names[i]);
		unlink(path);
		if (link(self, path))
			return -errno;
	}
	for (i = 0; i < ARRAY_SIZE(xattr_files); i++) {
		const char *value = xattr_files[i].value;

		snprintf(path, sizeof(path), "%s/%s", d, xattr_files[i].name);
		unlink(path);
		ret = copy_file(self, path);
		if (ret)
			return ret;
		/* A filesystem without xattrs keeps none: the model asks. */
		if (value &&
		    setxattr(path, XATTR_NAME, value, strlen(value), 0) &&
		    errno != EOPNOTSUPP)
			return -errno;
	}
	snprintf(path, sizeof(path), "%s/.stamp", d);
	return write_text_file(path, stamp);
}

/* The child: enter the subject, exec the link; reports only on failure. */
static void exec_child(const FIXTURE_VARIANT(exec) * v, const char *d, int out)
{
	char path[PATH_MAX], env[64];
	char *argv[] = { "exec_helper", NULL };
	char *envp[] = { env, NULL };
	struct exec_report r;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.magic = REPORT_MAGIC;
	switch (v->subj) {
	case S_UNCONFINED:
		break;
	case S_SRC:
		ret = aa_change_profile(SRC);
		break;
	case S_STACK:
		ret = aa_change_profile(STACK_A);
		if (!ret)
			ret = aa_stack_profile(STACK_B);
		break;
	case S_ONEXEC:
		ret = aa_change_onexec(TARGET);
		break;
	case S_STACKONEXEC:
		ret = aa_stack_onexec(TARGET);
		break;
	case S_SRCONEXEC:
		/* Entering the subject includes the onexec write. */
		ret = aa_change_profile(SRC);
		if (!ret)
			ret = aa_change_onexec(TARGET);
		break;
	}
	if (!ret && v->nnp)
		ret = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (ret) {
		r.enter = -errno;
		r.exec = NOT_RUN;
		_exit(pipe_write(out, &r, sizeof(r)) ? 81 : 0);
	}
	/* The report pipe survives the exec. */
	if (fcntl(out, F_SETFD, 0))
		_exit(82);
	snprintf(env, sizeof(env), REPORT_ENV "=%d", out);
	snprintf(path, sizeof(path), "%s/%s", d, v->file);
	execve(path, argv, envp);
	r.exec = -errno;
	_exit(pipe_write(out, &r, sizeof(r)) ? 83 : 0);
}

FIXTURE_SETUP(exec)
{
	static char rules[8192];
	struct aa_policy p;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	if (aa_feature("domain/stack") != 1 ||
	    aa_feature("domain/change_onexec") != 1)
		SKIP(return, "the kernel lacks domain/stack or change_onexec");
	if (!strncmp(variant->file, "xat_", 4) &&
	    aa_feature("domain/attach_conditions/xattr") != 1)
		SKIP(return, "the kernel lacks domain/attach_conditions/xattr");
	exec_dir(self->dir, sizeof(self->dir));
	ret = exec_links(self->dir);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("making the links in %s: %s", self->dir, strerror(-ret));
	}
	if (!strncmp(variant->file, "xat_", 4)) {
		char path[PATH_MAX], value[16];

		snprintf(path, sizeof(path), "%s/xat_yes", self->dir);
		if (getxattr(path, XATTR_NAME, value, sizeof(value)) < 0)
			SKIP(return,
				   "%s keeps no trusted.* xattr (CONFIG_TMPFS_XATTR)",
				   self->dir);
	}
	ASSERT_EQ(0, exec_rules(self->dir, rules, sizeof(rules)));
	ret = aa_policy_share(_metadata, &p, "exec", ABI, rules, "exec", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	if (ret == -ENOEXEC) {
		static char log[2048];

		if (read_text(p.log, log, sizeof(log)) > 0)
			TH_LOG("parser: %s", log);
	}
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(exec)
{
}

static void judge(struct __test_metadata *_metadata,
		  const FIXTURE_VARIANT(exec) * v, const char *op,
		  const char *detail, int expected, int observed)
{
	struct record rec = {
		.abi = ABI,
		.subject = subj_name[v->subj],
		.object = v->file,
		.class = v->subj == S_SRC ? form_text[v->form] : "-",
		.detail = detail,
		.op = op,
		.depends = "-",
		.expected = expected,
		.observed = observed,
	};

	JUDGE(&rec);
}

TEST_F_TIMEOUT(exec, decisions, 30)
{
	struct exec_expect e;
	struct exec_report r;
	char secure[32];
	int out[2];
	pid_t pid;

	exec_model(variant, self->dir, &e);
	nnp_model(variant, &e);
	ASSERT_EQ(0, pipe2(out, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		exec_child(variant, self->dir, out[1]);
	close(out[1]);
	memset(&r, 0, sizeof(r));
	ASSERT_EQ(0, pipe_read(out[0], &r, sizeof(r), PEER_WAIT_MS));
	close(out[0]);
	peer_reap(pid);
	ASSERT_EQ(REPORT_MAGIC, r.magic);
	ASSERT_EQ(0, r.enter)
	{
		TH_LOG("entering %s: %s", subj_name[variant->subj],
		       strerror(-r.enter));
	}
	judge(_metadata, variant, "exec", "-", e.exec, r.exec);
	if (e.exec)
		return;
	if (!r.exec && !r.getcon && strcmp(e.label, r.label))
		TH_LOG("label: expected \"%s\", read \"%s\"", e.label, r.label);
	judge(_metadata, variant, "label", e.label, 0,
	      r.exec		       ? NOT_RUN :
	      r.getcon		       ? r.getcon :
	      strcmp(e.label, r.label) ? -EPROTO :
					 0);
	snprintf(secure, sizeof(secure), "AT_SECURE=%d", e.secure);
	if (!r.exec && r.secure != (unsigned long)e.secure)
		TH_LOG("AT_SECURE: expected %d, read %lu", e.secure, r.secure);
	judge(_metadata, variant, "at_secure", secure, 0,
	      r.exec				  ? NOT_RUN :
	      r.secure != (unsigned long)e.secure ? -EPROTO :
						    0);
}

AA_HARNESS_MAIN
