/* SPDX-License-Identifier: BSD-2-Clause */
/* collector.h - what every collector (on-CPU, off-CPU, memory) offers the daemon */
#ifndef EMBER_COLLECTOR_H
#define EMBER_COLLECTOR_H

#include "daemon/collect/unwind.h"
#include "daemon/config/config.h"
#include "daemon/collect/procs.h"
#include "symbolize/symbolize.h"
#include "daemon/collect/window.h"

struct collector_ctx {
	const struct config *cfg;
	struct symbolizer *sym;
	struct procs *procs;
	struct unwind *unwind; /* NULL: user stacks from frame pointers */
};

struct collector {
	const char *name;
	/* Move what the kernel counted since the last drain into w. Returns 0 or -errno. */
	int (*drain)(struct collector *c, struct window *w);
	/* Stop collecting (detach from the kernel); what was counted can still be drained. */
	void (*detach)(struct collector *c);
	void (*free)(struct collector *c);
};

/* Each returns NULL with errno set, after logging why. */
struct collector *oncpu_new(const struct collector_ctx *ctx);
struct collector *offcpu_new(const struct collector_ctx *ctx);
struct collector *mem_new(const struct collector_ctx *ctx);

#endif
