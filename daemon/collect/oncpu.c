/* SPDX-License-Identifier: BSD-2-Clause */
/* oncpu.c - the on-CPU collector: load, attach a perf event per CPU, drain counts into a window */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "bpf/oncpu.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/kmaps.h"
#include "lib/log.h"
#include "daemon/collect/stack.h"
#include "oncpu.skel.h"

struct oncpu {
	struct collector base;
	const struct config *cfg;
	struct symbolizer *sym;
	struct oncpu_bpf *skel;
	int dwarf; /* user stacks from the unwind tables, in ustacks0/1 */
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
			int err = errno;

			log_err("cannot open a perf event on cpu %d: %s%s", cpu, strerror(err),
				err == EPERM || err == EACCES ? " (emberd needs CAP_PERFMON)" : "");
			return -err;
		}
		o->links[o->nlinks] =
			bpf_program__attach_perf_event(o->skel->progs.oncpu_sample, fd);
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

/*
 * One drain sees at most freq x CPUs x DRAIN_MAX_SEC samples, hence as many keys.
 * Stack maps have no chaining (a colliding stack is lost and counted), so they
 * get four times the room.
 */
static int size_maps(struct oncpu *o, int ncpus)
{
	uint64_t per_drain = (uint64_t)o->cfg->freq * ncpus * DRAIN_MAX_SEC;
	__u32 counts = kmaps_pow2(per_drain, 1024, 1u << 20);
	__u32 stacks = kmaps_pow2(4 * per_drain, 4096, 1u << 20);
	/*
	 * Unwound user stacks sit in a hash map keyed by their frames' hash: room for each distinct
	 * one a drain (a stack-trace map needs four times that, it drops on bucket collisions).
	 */
	__u32 ustacks = o->dwarf ? kmaps_pow2(per_drain, 1024, 1u << 20) : 1;
	struct oncpu_bpf *skel = o->skel;
	int err;

	err = bpf_map__set_max_entries(skel->maps.counts0, counts);
	err = err ?: bpf_map__set_max_entries(skel->maps.counts1, counts);
	err = err ?: bpf_map__set_max_entries(skel->maps.stacks0, stacks);
	err = err ?: bpf_map__set_max_entries(skel->maps.stacks1, stacks);
	err = err ?: bpf_map__set_max_entries(skel->maps.ustacks0, ustacks);
	err = err ?: bpf_map__set_max_entries(skel->maps.ustacks1, ustacks);
	log_debug("on-CPU: maps sized for %llu samples per drain: %u counts, %u stacks",
		  (unsigned long long)per_drain, counts, stacks);
	return err;
}

struct drain_ctx {
	struct oncpu *o;
	int stacks_fd,
		ustacks_fd; /* ustacks_fd: where user stacks are (stacks_fd without tables) */
	struct window *w;
};

static int fold_key(void *arg, const void *key, uint64_t count)
{
	const struct drain_ctx *d = arg;
	const struct oncpu_key *k = key;
	struct oncpu *o = d->o;
	struct kmaps_stacks ks;
	int err;

	kmaps_read_stacks(&ks, k->pid, k->tid, k->comm, d->ustacks_fd, k->ustack_id, d->stacks_fd,
			  k->kstack_id);
	err = stack_fold_counted(&o->line, o->sym, o->cfg->prefix, &ks.s, &d->w->stats[KIND_ONCPU],
				 count);
	if (err)
		return err;
	return folded_add(d->w->profiles[KIND_ONCPU], o->line.buf, o->line.len, count);
}

/*
 * Flip the double buffer and fold the idle one's counts into w's on-CPU profile; its stack map is
 * emptied even when folding fails, and the BPF counters' increase since the last drain goes into
 * w's stats. Returns 0 or the fold's negative errno.
 */
static int oncpu_drain(struct collector *c, struct window *w)
{
	struct oncpu *o = (struct oncpu *)c;
	struct oncpu_bpf *skel = o->skel;
	uint64_t delta[ONCPU_STAT_MAX];
	__u32 idle = kmaps_flip(&skel->bss->active);
	struct drain_ctx d = { o, bpf_map__fd(idle ? skel->maps.stacks1 : skel->maps.stacks0),
			       bpf_map__fd(idle ? skel->maps.ustacks1 : skel->maps.ustacks0), w };
	int err;

	if (!o->dwarf)
		d.ustacks_fd = d.stacks_fd;
	err = kmaps_drain(bpf_map__fd(idle ? skel->maps.counts1 : skel->maps.counts0),
			  sizeof(struct oncpu_key), fold_key, &d);
	kmaps_clear(d.stacks_fd);
	if (o->dwarf)
		kmaps_clear(d.ustacks_fd);

	kmaps_stats(bpf_map__fd(skel->maps.stats), ONCPU_STAT_MAX, o->stats_seen, delta);
	w->stats[KIND_ONCPU].samples += delta[ONCPU_STAT_SAMPLES];
	w->stats[KIND_ONCPU].lost += delta[ONCPU_STAT_COUNT_FULL];
	if (delta[ONCPU_STAT_COUNT_FULL])
		log_warn("on-CPU: %llu samples lost, count map full",
			 (unsigned long long)delta[ONCPU_STAT_COUNT_FULL]);
	if (delta[ONCPU_STAT_KSTACK_ERR] + delta[ONCPU_STAT_USTACK_ERR])
		log_debug("on-CPU: stacks not captured: %llu kernel, %llu user",
			  (unsigned long long)delta[ONCPU_STAT_KSTACK_ERR],
			  (unsigned long long)delta[ONCPU_STAT_USTACK_ERR]);
	if (o->dwarf)
		unwind_count_walks("on-CPU",
				   &(struct unwind_walks){
					   delta[ONCPU_STAT_UNW_WALKS],
					   delta[ONCPU_STAT_UNW_COMPLETE],
					   delta[ONCPU_STAT_UNW_CUT],
					   delta[ONCPU_STAT_UNW_FP],
					   delta[ONCPU_STAT_UNW_NO_PROC],
				   },
				   &w->stats[KIND_ONCPU]);
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

/* Open, configure and load the BPF object, user stacks walked with tables when dwarf. */
static int open_load(struct oncpu *o, const struct collector_ctx *ctx, int dwarf)
{
	int err;

	oncpu_bpf__destroy(o->skel);
	o->dwarf = dwarf;
	o->skel = oncpu_bpf__open();
	if (!o->skel)
		return -errno;
	o->skel->rodata->include_idle = ctx->cfg->include_idle;
	o->skel->rodata->filter_pids = ctx->cfg->npids > 0;
	o->skel->rodata->unwind_dwarf = dwarf;
	err = size_maps(o, libbpf_num_possible_cpus());
	if (!err)
		err = procs_share(ctx->procs, o->skel->obj);
	if (!err && dwarf)
		err = unwind_share(ctx->unwind, o->skel->obj);
	return err ?: oncpu_bpf__load(o->skel);
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
	err = open_load(o, ctx, ctx->unwind != NULL);
	if (err && ctx->unwind && ctx->cfg->unwind_mode == UNWIND_AUTO) {
		log_warn("on-CPU: the kernel refused the table walker (%s), frame pointers instead",
			 strerror(-err));
		err = open_load(o, ctx, 0);
	}
	if (err) {
		log_err("cannot load the on-CPU BPF programs: %s", strerror(-err));
		goto cleanup;
	}
	err = kmaps_fill_pids(bpf_map__fd(o->skel->maps.pids), o->cfg);
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
