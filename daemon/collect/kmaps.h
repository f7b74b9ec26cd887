/* SPDX-License-Identifier: BSD-2-Clause */
/* kmaps.h - what every collector does with its kernel maps: size, fill, swap, drain, clear */
#ifndef EMBER_KMAPS_H
#define EMBER_KMAPS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "daemon/config/config.h"
#include "daemon/collect/stack.h"

/* The smallest power of two >= v, within [lo, hi]. */
__u32 kmaps_pow2(uint64_t v, __u32 lo, __u32 hi);

/* Put every configured pid into a pid-filter hash map. Returns 0 or -errno. */
int kmaps_fill_pids(int fd, const struct config *cfg);

/*
 * Flip a double-buffered collector's `active` index and wait out the programs
 * still writing the old buffer (they cannot sleep). Returns the buffer to drain.
 */
__u32 kmaps_flip(volatile __u32 *active);

/* Called once per drained entry; returns 0 or -errno, which stops the drain. */
typedef int (*kmaps_entry_fn)(void *ctx, const void *key, uint64_t value);

/* Read and delete every entry of a hash map whose values are __u64. Returns 0 or -errno. */
int kmaps_drain(int fd, size_t key_size, kmaps_entry_fn fn, void *ctx);
/* The fullest a drained map was (entries / max_entries) since the last call. */
double kmaps_peak_fill(void);

/* The same for any value size: fn gets a pointer to each value. */
typedef int (*kmaps_raw_fn)(void *ctx, const void *key, const void *value);
int kmaps_drain_raw(int fd, size_t key_size, size_t value_size, kmaps_raw_fn fn, void *ctx);

/*
 * Read a stack (addresses leaf first) by id from a map whose values are
 * MAX_STACK_DEPTH addresses: its depth, 0 for STACK_ID_NONE or an id no longer
 * there, STACK_LOST for STACK_ID_LOST.
 */
int kmaps_stack(int fd, __u32 id, uint64_t *ips);

/* A task's stacks read back from the maps, ready for stack_fold(). */
struct kmaps_stacks {
	struct stack_sample s;
	uint64_t uips[MAX_STACK_DEPTH], kips[MAX_STACK_DEPTH];
};

/*
 * Fill ks for the task pid/tid/comm: its user stack uid from map ufd and its
 * kernel stack kid from map kfd (STACK_ID_NONE for none).
 */
void kmaps_read_stacks(struct kmaps_stacks *ks, __u32 pid, __u32 tid, const char *comm, int ufd,
		       __u32 uid, int kfd, __u32 kid);

/* Delete every entry of a map with __u32 keys (stack maps), so it never fills over hours. */
void kmaps_clear(int fd);

/*
 * Sum the per-CPU __u64 slots [0, nslots) of an array map, and return in delta
 * what was added since the last call (seen holds the totals already reported).
 */
void kmaps_stats(int fd, int nslots, uint64_t *seen, uint64_t *delta);

#endif
