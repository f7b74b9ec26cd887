/* SPDX-License-Identifier: BSD-2-Clause */
/* stap.h - fold SystemTap backtraces (print_backtrace() and a count) into stacks */
#ifndef EMBER_STAP_H
#define EMBER_STAP_H

#include <stdint.h>

#include "collapse/folded.h"
#include "lib/lines.h"

struct stap_stats {
	uint64_t lines;
	uint64_t stacks;
	uint64_t incomplete; /* frames after the last count, ignored (0 or 1) */
};

/*
 * As stackcollapse-stap.pl: frames "0xADDR : func+0xOFF/0xLEN [module]" leaf first, then a
 * line with the count alone. Returns 0, -EIO, -ENOMEM or -EOVERFLOW.
 */
int stap_fold(struct lines *lr, struct folded *out, struct stap_stats *st);

#endif
