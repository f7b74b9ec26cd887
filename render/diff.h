/* SPDX-License-Identifier: BSD-2-Clause */
/* diff.h - two folded profiles side by side, as difffolded.pl: "stack before after" */
#ifndef EMBER_DIFF_H
#define EMBER_DIFF_H

#include <stdio.h>

#include "collapse/folded.h"

struct diff_opts {
	int normalize; /* scale the first profile's counts to the second's total */
	int strip_hex; /* "0x1f2e" -> "0x...", so that addresses match across runs */
};

/*
 * Write "stack count1 count2" for every stack of either profile, sorted by stack, as
 * difffolded.pl does (its order is hash order). Returns 0, -ENOMEM or -EIO.
 */
int diff_write(const struct folded *before, const struct folded *after, const struct diff_opts *o,
	       FILE *out);

/* Replace every 0x<hex digits> in the stacks of src by "0x..." into dst. Returns 0 or -errno. */
int diff_strip_hex(struct folded *dst, const struct folded *src);

/* `ember diff` */
int diff_main(int argc, char **argv);

#endif
