/* SPDX-License-Identifier: BSD-2-Clause */
/* memcol.h - the memory collector's state, shared by its loader (mem.c) and drain (memdrain.c) */
#ifndef EMBER_MEMCOL_H
#define EMBER_MEMCOL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "bpf/mem.h"
#include "lib/sbuf.h"
#include "daemon/collect/collector.h"

/* One allocator library probed: the host's (pid 0) or one process's own. */
struct memlib {
	char path[PATH_MAX];
	uint32_t pid;
	size_t nalloc;
	uint64_t offsets[MEM_NFN], cookies[MEM_NFN];
	uint64_t free_offset;
	int alloc_fd, free_fd; /* links, -1 when detached */
};

struct mem {
	struct collector base;
	const struct config *cfg;
	struct symbolizer *sym;
	struct mem_bpf *skel;
	bool dwarf; /* user stacks walked with unwind tables (map ustacks), not frame pointers */
	struct memlib libs[MEM_MAX_LIBS];
	int nlibs;
	struct bpf_link *links[5]; /* exit, exec, mmap, munmap, brk */
	int nlinks;
	/* Duty cycle: the thread attaches and detaches the allocation probes. */
	pthread_t duty;
	int duty_running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop, attached;
	uint64_t on_since, on_ns, on_total, last_drain, started; /* CLOCK_MONOTONIC ns */
	uint64_t stats_seen[MEM_STAT_MAX];
	struct sbuf line;
};

uint64_t mem_now_ns(void);

/* Time the allocation probes were attached since the last call, and the time elapsed. */
void mem_take_on_time(struct mem *m, uint64_t *on_ns, uint64_t *elapsed_ns, double *duty_total);

/* memdrain.c: move counts into w (alloc, heap) and replace w's live profile. Returns 0 or -errno. */
int mem_drain(struct collector *c, struct window *w);

#endif
