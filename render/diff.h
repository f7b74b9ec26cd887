/* SPDX-License-Identifier: BSD-2-Clause */
/* diff.h - two folded profiles side by side, as difffolded.pl: "stack before after" */
#ifndef EMBER_DIFF_H
#define EMBER_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct diff_opts {
	int normalize; /* scale the first profile's counts to the second's total */
	int strip_hex; /* "0x1f2e" -> "0x...", so that addresses match across runs */
};

/*
 * The stacks of two profiles with a count from each. Stacks are not copied: the text given to
 * diff_add_text() must outlive the diff (unless hex is stripped, which makes copies).
 */
struct diff;

struct diff *diff_new(const struct diff_opts *o);
void diff_free(struct diff *d);

/*
 * Add the folded lines in text (len bytes) to profile side (0: before, 1: after); a line's
 * last count is the one taken, as difffolded.pl does. Malformed lines are skipped and counted
 * in *ignored. Returns 0 or -ENOMEM.
 */
int diff_add_text(struct diff *d, int side, const char *text, size_t len, uint64_t *ignored);

/*
 * Write "stack count_before count_after" for every stack of either profile: the first
 * profile's stacks in the order first seen, then those only in the second. Returns 0 or -EIO.
 */
int diff_write(struct diff *d, FILE *out);

#endif
