/* SPDX-License-Identifier: BSD-2-Clause */
/* stack.h - turn a sampled stack (process, user and kernel addresses) into a folded line */
#ifndef EMBER_STACK_H
#define EMBER_STACK_H

#include <stdint.h>

#include "lib/sbuf.h"
#include "daemon/config/config.h"
#include "symbolize/symbolize.h"
#include "daemon/collect/window.h"

struct stack_sample {
	uint32_t pid, tid;
	const char *comm;            /* up to 16 bytes, NUL-terminated or not */
	const uint64_t *uips, *kips; /* leaf first, as the kernel stores them */
	int nu, nk;                  /* STACK_LOST: the kernel could not store this stack */
};

#define STACK_LOST (-1)

/*
 * Write "comm;user frames;kernel frames" (root first) into sb, replacing its
 * contents. Returns 0 or -errno.
 */
int stack_fold(struct sbuf *sb, struct symbolizer *sym, enum stack_prefix prefix,
	       const struct stack_sample *s);

/* stack_fold(), counting its frames (and those named) weight times into ws. */
int stack_fold_counted(struct sbuf *sb, struct symbolizer *sym, enum stack_prefix prefix,
		       const struct stack_sample *s, struct window_stats *ws, uint64_t weight);

/* Number of leading non-zero addresses in a stack-map value of depth max. */
int stack_depth(const uint64_t *ips, int max);

#endif
