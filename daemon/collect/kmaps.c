/* SPDX-License-Identifier: BSD-2-Clause */
/* kmaps.c - what every collector does with its kernel maps: size, fill, swap, drain, clear */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "daemon/collect/kmaps.h"
#include "daemon/collect/stack.h"

#define DRAIN_BATCH 512

__u32 kmaps_pow2(uint64_t v, __u32 lo, __u32 hi)
{
	__u32 p = lo;

	while (p < v && p < hi)
		p <<= 1;
	return p;
}

int kmaps_fill_pids(int fd, const struct config *cfg)
{
	__u8 one = 1;

	for (size_t i = 0; i < cfg->npids; i++)
		if (bpf_map_update_elem(fd, &cfg->pids[i], &one, BPF_ANY))
			return -errno;
	return 0;
}

__u32 kmaps_flip(volatile __u32 *active)
{
	__u32 idle = *active & 1;

	*active = !idle;
	nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	return idle;
}

static double peak_fill;

double kmaps_peak_fill(void)
{
	double f = peak_fill;

	peak_fill = 0;
	return f;
}

static void note_fill(int fd, uint64_t entries)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.max_entries &&
	    (double)entries / info.max_entries > peak_fill)
		peak_fill = (double)entries / info.max_entries;
}

int kmaps_drain_raw(int fd, size_t key_size, size_t value_size, kmaps_raw_fn fn, void *ctx)
{
	uint64_t entries = 0;
	char *keys = malloc(key_size * DRAIN_BATCH), *vals = malloc(value_size * DRAIN_BATCH);
	__u32 batch = 0;
	void *in = NULL;
	int err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (;;) {
		__u32 n = DRAIN_BATCH;
		int rc = bpf_map_lookup_and_delete_batch(fd, in, &batch, keys, vals, &n, NULL);

		if (rc && errno != ENOENT) {
			err = -errno;
			break;
		}
		entries += n;
		for (__u32 i = 0; i < n && !err; i++)
			err = fn(ctx, keys + i * key_size, vals + i * value_size);
		if (err || rc)
			break;
		in = &batch;
	}
cleanup:
	free(vals);
	free(keys);
	note_fill(fd, entries);
	return err;
}

struct u64_drain {
	kmaps_entry_fn fn;
	void *ctx;
};

static int u64_entry(void *ctx, const void *key, const void *value)
{
	struct u64_drain *d = ctx;

	return d->fn(d->ctx, key, *(const __u64 *)value);
}

int kmaps_drain(int fd, size_t key_size, kmaps_entry_fn fn, void *ctx)
{
	struct u64_drain d = { fn, ctx };

	return kmaps_drain_raw(fd, key_size, sizeof(__u64), u64_entry, &d);
}

int kmaps_stack(int fd, __u32 id, uint64_t *ips)
{
	if (id == STACK_ID_LOST)
		return STACK_LOST;
	if (id == STACK_ID_NONE || bpf_map_lookup_elem(fd, &id, ips))
		return 0;
	return stack_depth(ips, MAX_STACK_DEPTH);
}

void kmaps_read_stacks(struct kmaps_stacks *ks, __u32 pid, __u32 tid, const char *comm, int ufd,
		       __u32 uid, int kfd, __u32 kid)
{
	ks->s = (struct stack_sample){
		.pid = pid,
		.tid = tid,
		.comm = comm,
		.uips = ks->uips,
		.kips = ks->kips,
		.nu = kmaps_stack(ufd, uid, ks->uips),
		.nk = kmaps_stack(kfd, kid, ks->kips),
	};
}

void kmaps_clear(int fd)
{
	__u32 key, next;
	int have = 0;

	/* Delete each key once its successor is known: a walk from a deleted hash key restarts. */
	while (bpf_map_get_next_key(fd, have ? &key : NULL, &next) == 0) {
		if (have)
			bpf_map_delete_elem(fd, &key);
		key = next;
		have = 1;
	}
	if (have)
		bpf_map_delete_elem(fd, &key);
}

void kmaps_stats(int fd, int nslots, uint64_t *seen, uint64_t *delta)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *vals = ncpus > 0 ? calloc(ncpus, sizeof(*vals)) : NULL;

	memset(delta, 0, sizeof(*delta) * nslots);
	if (!vals)
		return;
	for (__u32 slot = 0; slot < (__u32)nslots; slot++) {
		uint64_t sum = 0;

		if (bpf_map_lookup_elem(fd, &slot, vals))
			continue;
		for (int c = 0; c < ncpus; c++)
			sum += vals[c];
		delta[slot] = sum - seen[slot];
		seen[slot] = sum;
	}
	free(vals);
}
