/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a cached build is made of: its unpatched build's key and each of
 * its patches' SHA-256, in order. A build of SOURCE+P1..Pn starts from the
 * built kernel nearest to it, the one fewest patch applications away
 * (reverting the neighbour's later patches, applying ours), so only the
 * files those patches touch are compiled again.
 */
#ifndef LSMCONF_LINEAGE_H
#define LSMCONF_LINEAGE_H

#include <stdbool.h>
#include <stddef.h>

struct lineage {
	char *base; /* the unpatched build's key */
	size_t n;
	char (*hash)[65]; /* each patch's SHA-256, in order */
};

/* "base KEY\n" then a "patch SHA256\n" line each; malloc'd. */
char *lineage_text(const struct lineage *l);
/* Parses lineage_text(); 0, or -1 when @text is not one. */
int lineage_parse(const char *text, struct lineage *l);
void lineage_free(struct lineage *l);

/*
 * How many patch applications turn build @from into @to: the patches of
 * @from after their common prefix reverted, then @to's applied (*@common
 * is that prefix's length); (size_t)-1 when their bases differ.
 */
size_t lineage_distance(const struct lineage *from, const struct lineage *to,
			size_t *common);

/*
 * The complete build under @builds (a directory of cache entries, each
 * with a "lineage" file and a ".complete" stamp) nearest to @want, if it
 * is nearer than the unpatched build (@want->n away) and not @want itself:
 * its entry's directory (malloc'd) and its lineage in @found; NULL when
 * none is nearer. A tie goes to fewer reverts: patch -R is the less
 * tried path.
 */
char *lineage_nearest(const char *builds, const struct lineage *want,
		      struct lineage *found);

#endif
