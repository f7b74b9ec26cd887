/* SPDX-License-Identifier: BSD-2-Clause */
/* oncpu.c - the on-CPU collector: load, attach a perf event per CPU, drain counts into a window */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "bpf/oncpu.h"
#include "daemon/collector.h"
#include "daemon/log.h"
#include "daemon/stack.h"
#include "oncpu.skel.h"

#define DRAIN_BATCH 512

struct oncpu {
	struct collector base;
	const struct config *cfg;
	struct symbolizer *sym;
	struct oncpu_bpf *skel;
	struct bpf_link **links;
	int nlinks;
	uint64_t stats_seen[ONCPU_STAT_MAX]; /* totals already reported */
	struct sbuf line;
};

static int open_event(const struct config *cfg, int cpu, int hw)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
		.config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = cfg->freq,
		.freq = 1,
	};

	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Attach the program to a sampling event on every online CPU. Returns 0 or -errno. */
static int attach_cpus(struct oncpu *o)
{
	int ncpus = libbpf_num_possible_cpus(), hw = o->cfg->hw_cycles;

	if (ncpus <= 0)
		return ncpus ? ncpus : -ENODEV;
	o->links = calloc(ncpus, sizeof(*o->links));
	if (!o->links)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = open_event(o->cfg, cpu, hw);

		if (fd < 0 && hw && (errno == ENOENT || errno == EOPNOTSUPP)) {
			log_warn("hardware cycles not supported, sampling cpu-clock instead");
			hw = 0;
			fd = open_event(o->cfg, cpu, hw);
		}
		if (fd < 0 && errno == ENODEV)
			continue; /* offline CPU */
		if (fd < 0) {
			log_err("cannot open a perf event on cpu %d: %s", cpu, strerror(errno));
			return -errno;
		}
		o->links[o->nlinks] = bpf_program__attach_perf_event(o->skel->progs.oncpu_sample,
								      fd);
		if (!o->links[o->nlinks]) {
			int err = -errno;

			close(fd);
			log_err("cannot attach to the perf event on cpu %d: %s", cpu,
				strerror(-err));
			return err;
		}
		o->nlinks++;
	}
	log_info("on-CPU: sampling %s at %u Hz on %d CPUs", hw ? "cycles" : "cpu-clock",
		 o->cfg->freq, o->nlinks);
	return 0;
}

static __u32 pow2_clamp(uint64_t v, __u32 lo, __u32 hi)
{
	__u32 p = lo;

	while (p < v && p < hi)
		p <<= 1;
	return p;
}

/*
 * One drain sees at most freq x CPUs x DRAIN_MAX_SEC samples, hence as many keys.
 * Stack maps have no chaining (a colliding stack is lost and counted), so they
 * get four times the room.
 */
static int size_maps(struct oncpu *o, int ncpus)
{
	uint64_t per_drain = (uint64_t)o->cfg->freq * ncpus * DRAIN_MAX_SEC;
	__u32 counts = pow2_clamp(per_drain, 1024, 1u << 20);
	__u32 stacks = pow2_clamp(4 * per_drain, 4096, 1u << 20);
	struct oncpu_bpf *skel = o->skel;
	int err;

	err = bpf_map__set_max_entries(skel->maps.counts0, counts);
	err = err ?: bpf_map__set_max_entries(skel->maps.counts1, counts);
	err = err ?: bpf_map__set_max_entries(skel->maps.stacks0, stacks);
	err = err ?: bpf_map__set_max_entries(skel->maps.stacks1, stacks);
	log_debug("on-CPU: maps sized for %llu samples per drain: %u counts, %u stacks",
		  (unsigned long long)per_drain, counts, stacks);
	return err;
}

static int fill_pid_filter(struct oncpu *o)
{
	int fd = bpf_map__fd(o->skel->maps.pids);
	__u8 one = 1;

	for (size_t i = 0; i < o->cfg->npids; i++)
		if (bpf_map_update_elem(fd, &o->cfg->pids[i], &one, BPF_ANY))
			return -errno;
	return 0;
}

/* Sum the per-CPU stats and return what was added since the last call, per slot. */
static void read_stats(struct oncpu *o, uint64_t delta[ONCPU_STAT_MAX])
{
	int ncpus = libbpf_num_possible_cpus(), fd = bpf_map__fd(o->skel->maps.stats);
	uint64_t *vals = calloc(ncpus, sizeof(*vals));

	memset(delta, 0, sizeof(uint64_t) * ONCPU_STAT_MAX);
	if (!vals)
		return;
	for (__u32 slot = 0; slot < ONCPU_STAT_MAX; slot++) {
		uint64_t sum = 0;

		if (bpf_map_lookup_elem(fd, &slot, vals))
			continue;
		for (int c = 0; c < ncpus; c++)
			sum += vals[c];
		delta[slot] = sum - o->stats_seen[slot];
		o->stats_seen[slot] = sum;
	}
	free(vals);
}

static int lookup_stack(int fd, __u32 id, uint64_t *ips)
{
	if (id == STACK_ID_LOST)
		return STACK_LOST;
	if (id == STACK_ID_NONE || bpf_map_lookup_elem(fd, &id, ips))
		return 0;
	return stack_depth(ips, MAX_STACK_DEPTH);
}

static int fold_key(struct oncpu *o, int stacks_fd, const struct oncpu_key *k, uint64_t count,
		    struct window *w)
{
	uint64_t uips[MAX_STACK_DEPTH], kips[MAX_STACK_DEPTH];
	struct stack_sample s = {
		.pid = k->pid,
		.tid = k->tid,
		.comm = k->comm,
		.uips = uips,
		.kips = kips,
	};
	int err;

	s.nu = lookup_stack(stacks_fd, k->ustack_id, uips);
	s.nk = lookup_stack(stacks_fd, k->kstack_id, kips);
	err = stack_fold(&o->line, o->sym, o->cfg->prefix, &s);
	if (err)
		return err;
	return folded_add(w->profiles[KIND_ONCPU], o->line.buf, o->line.len, count);
}

/* Remove every stack of the idle buffer, so the map never fills over hours. */
static void clear_stacks(int fd)
{
	__u32 key, next;
	__u32 *prev = NULL;

	/* Stack ids are indexes: the next key after a deleted one is still found. */
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		bpf_map_delete_elem(fd, &next);
		key = next;
		prev = &key;
	}
}

static int drain_counts(struct oncpu *o, int counts_fd, int stacks_fd, struct window *w)
{
	static struct oncpu_key keys[DRAIN_BATCH];
	static __u64 vals[DRAIN_BATCH];
	__u32 batch = 0;
	void *in = NULL;
	int err = 0;

	for (;;) {
		__u32 n = DRAIN_BATCH;
		int rc = bpf_map_lookup_and_delete_batch(counts_fd, in, &batch, keys, vals, &n,
							 NULL);

		if (rc && errno != ENOENT)
			return -errno;
		for (__u32 i = 0; i < n && !err; i++)
			err = fold_key(o, stacks_fd, &keys[i], vals[i], w);
		if (err || rc)
			return err;
		in = &batch;
	}
}

static int oncpu_drain(struct collector *c, struct window *w)
{
	struct oncpu *o = (struct oncpu *)c;
	struct oncpu_bpf *skel = o->skel;
	uint64_t delta[ONCPU_STAT_MAX];
	__u32 idle = skel->bss->active & 1;
	int err;

	/* Flip, then wait out programs still running on the old buffer (they cannot sleep). */
	skel->bss->active = !idle;
	nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);

	if (idle)
		err = drain_counts(o, bpf_map__fd(skel->maps.counts1),
				   bpf_map__fd(skel->maps.stacks1), w);
	else
		err = drain_counts(o, bpf_map__fd(skel->maps.counts0),
				   bpf_map__fd(skel->maps.stacks0), w);
	clear_stacks(bpf_map__fd(idle ? skel->maps.stacks1 : skel->maps.stacks0));

	read_stats(o, delta);
	w->stats[KIND_ONCPU].samples += delta[ONCPU_STAT_SAMPLES];
	w->stats[KIND_ONCPU].lost += delta[ONCPU_STAT_COUNT_FULL];
	if (delta[ONCPU_STAT_COUNT_FULL])
		log_warn("on-CPU: %llu samples lost, count map full",
			 (unsigned long long)delta[ONCPU_STAT_COUNT_FULL]);
	if (delta[ONCPU_STAT_KSTACK_ERR] + delta[ONCPU_STAT_USTACK_ERR])
		log_debug("on-CPU: stacks not captured: %llu kernel, %llu user",
			  (unsigned long long)delta[ONCPU_STAT_KSTACK_ERR],
			  (unsigned long long)delta[ONCPU_STAT_USTACK_ERR]);
	return err;
}

static void oncpu_detach(struct collector *c)
{
	struct oncpu *o = (struct oncpu *)c;

	for (int i = 0; i < o->nlinks; i++)
		bpf_link__destroy(o->links[i]);
	o->nlinks = 0;
}

static void oncpu_free(struct collector *c)
{
	struct oncpu *o = (struct oncpu *)c;

	if (!o)
		return;
	oncpu_detach(c);
	free(o->links);
	oncpu_bpf__destroy(o->skel);
	sbuf_release(&o->line);
	free(o);
}

struct collector *oncpu_new(const struct collector_ctx *ctx)
{
	struct oncpu *o = calloc(1, sizeof(*o));
	int err;

	if (!o)
		return NULL;
	o->base = (struct collector){ "oncpu", oncpu_drain, oncpu_detach, oncpu_free };
	o->cfg = ctx->cfg;
	o->sym = ctx->sym;
	o->skel = oncpu_bpf__open();
	if (!o->skel) {
		err = -errno;
		log_err("cannot open the on-CPU BPF object: %s", strerror(-err));
		goto cleanup;
	}
	o->skel->rodata->include_idle = ctx->cfg->include_idle;
	o->skel->rodata->filter_pids = ctx->cfg->npids > 0;
	err = size_maps(o, libbpf_num_possible_cpus());
	if (!err)
		err = procs_share(ctx->procs, o->skel->obj);
	if (!err)
		err = oncpu_bpf__load(o->skel);
	if (err) {
		log_err("cannot load the on-CPU BPF programs: %s", strerror(-err));
		goto cleanup;
	}
	err = fill_pid_filter(o);
	if (!err)
		err = attach_cpus(o);
	if (err)
		goto cleanup;
	return &o->base;
cleanup:
	oncpu_free(&o->base);
	errno = -err;
	return NULL;
}
