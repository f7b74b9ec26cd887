/* SPDX-License-Identifier: BSD-2-Clause */
/* recursion.h - collapse direct recursion in folded stacks, as stackcollapse-recursive.pl */
#ifndef EMBER_RECURSION_H
#define EMBER_RECURSION_H

#include "collapse/folded.h"

/*
 * Add each stack of src to dst with runs of one repeated frame ("f;f;f") folded into one.
 * As the Perl, empty trailing frames go, a leading empty frame goes, and the stacks "" and
 * "0" are dropped. Returns 0, -ENOMEM or -EOVERFLOW.
 */
int folded_merge_recursion(struct folded *dst, const struct folded *src);

#endif
