/* SPDX-License-Identifier: BSD-2-Clause */
/* bpftrace.h - fold bpftrace map output (@[kstack, ustack, comm] = count()) into stacks */
#ifndef EMBER_BPFTRACE_H
#define EMBER_BPFTRACE_H

#include <stdint.h>

#include "collapse/folded.h"
#include "lib/lines.h"

struct bpftrace_stats {
	uint64_t lines;
	uint64_t unrecognized; /* lines outside a map entry that are no header */
	uint64_t entries;
	uint64_t incomplete; /* an entry cut short by the end of the input (0 or 1) */
};

/*
 * As stackcollapse-bpftrace.pl: the frames of each key, the leaf of each stack first, come
 * out root first, the count is the value. Unlike the Perl, entries whose first key is an
 * empty stack ("@[, "), keys of several fields (the ", " lines between them are no frames),
 * named maps (@name[...]) and scalar keys (@[comm]: 3) are folded too, never dropped.
 * Returns 0, -EIO, -ENOMEM or -EOVERFLOW.
 */
int bpftrace_fold(struct lines *lr, struct folded *out, struct bpftrace_stats *st);

#endif
