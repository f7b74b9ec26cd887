/* SPDX-License-Identifier: BSD-2-Clause */
/* offcpu.c - the off-CPU collector: load, attach to the scheduler, drain blocked time into a window */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "bpf/offcpu.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/kmaps.h"
#include "lib/log.h"
#include "daemon/collect/stack.h"
#include "offcpu.skel.h"

struct offcpu {
	struct collector base;
	const struct config *cfg;
	struct symbolizer *sym;
	struct offcpu_bpf *skel;
	int dwarf; /* user stacks from the unwind tables, in ustacks0/1 */
	uint64_t stats_seen[OFFCPU_STAT_MAX]; /* totals already reported */
	struct sbuf line, waker;
};

struct drain_ctx {
	struct offcpu *o;
	int stacks_fd, kstacks_fd;
	int ustacks_fd; /* user stacks: ustacksN with tables, else stacks_fd */
	struct window *w;
};

/* Append ";--;" and the waker's frames leaf first, as FlameGraph's chain graphs have them. */
static int add_waker(struct offcpu *o, const struct drain_ctx *d, const struct offcpu_key *k)
{
	struct kmaps_stacks ks;
	size_t end;
	int err;

	kmaps_read_stacks(&ks, k->waker_pid, k->waker_pid, k->waker_comm, d->ustacks_fd,
			  k->waker_ustack_id, d->stacks_fd, k->waker_kstack_id);
	err = stack_fold(&o->waker, o->sym, PREFIX_COMM, &ks.s);
	err = err ?: sbuf_addstr(&o->line, ";--");
	end = o->waker.len;
	for (size_t i = end; i-- > 0 && !err;) {
		if (i > 0 && o->waker.buf[i - 1] != ';')
			continue;
		err = sbuf_addch(&o->line, ';');
		err = err ?: sbuf_add(&o->line, o->waker.buf + i, end - i);
		end = i - 1; /* before the ';' */
	}
	return err;
}

static int fold_key(void *arg, const void *key, uint64_t ns)
{
	const struct drain_ctx *d = arg;
	const struct offcpu_key *k = key;
	struct offcpu *o = d->o;
	struct kmaps_stacks ks;
	int err;

	kmaps_read_stacks(&ks, k->pid, k->tid, k->comm, d->ustacks_fd, k->ustack_id, d->kstacks_fd,
			  k->kstack_id);
	err = stack_fold_counted(&o->line, o->sym, o->cfg->prefix, &ks.s, &d->w->stats[KIND_OFFCPU],
				 ns / 1000);
	if (!err && k->waker_comm[0])
		err = add_waker(o, d, k);
	if (err)
		return err;
	return folded_add(d->w->profiles[KIND_OFFCPU], o->line.buf, o->line.len, ns / 1000);
}

/*
 * This drain's BPF counters: blocks as samples, those without thread storage or count map room as
 * lost (warned), missed stacks at debug level, and with unwind tables the user stack walks.
 */
static void report_stats(struct offcpu *o, struct window *w)
{
	uint64_t delta[OFFCPU_STAT_MAX], lost;

	kmaps_stats(bpf_map__fd(o->skel->maps.stats), OFFCPU_STAT_MAX, o->stats_seen, delta);
	lost = delta[OFFCPU_STAT_NO_STORAGE] + delta[OFFCPU_STAT_COUNT_FULL];
	w->stats[KIND_OFFCPU].samples += delta[OFFCPU_STAT_BLOCKS];
	w->stats[KIND_OFFCPU].lost += lost;
	if (lost)
		log_warn("off-CPU: %llu blocks lost (%llu no thread storage, %llu count map full)",
			 (unsigned long long)lost,
			 (unsigned long long)delta[OFFCPU_STAT_NO_STORAGE],
			 (unsigned long long)delta[OFFCPU_STAT_COUNT_FULL]);
	if (delta[OFFCPU_STAT_KSTACK_ERR] + delta[OFFCPU_STAT_USTACK_ERR] +
	    delta[OFFCPU_STAT_WAKER_ERR])
		log_debug("off-CPU: stacks not captured: %llu kernel, %llu user, %llu waker",
			  (unsigned long long)delta[OFFCPU_STAT_KSTACK_ERR],
			  (unsigned long long)delta[OFFCPU_STAT_USTACK_ERR],
			  (unsigned long long)delta[OFFCPU_STAT_WAKER_ERR]);
	if (o->dwarf)
		unwind_count_walks("off-CPU",
				   &(struct unwind_walks){
					   delta[OFFCPU_STAT_UNW_WALKS],
					   delta[OFFCPU_STAT_UNW_COMPLETE],
					   delta[OFFCPU_STAT_UNW_CUT],
					   delta[OFFCPU_STAT_UNW_FP],
					   delta[OFFCPU_STAT_UNW_NO_PROC],
				   },
				   &w->stats[KIND_OFFCPU]);
}

/*
 * Flip the double buffer, fold each idle (key, ns) into the off-CPU profile in microseconds, empty
 * the idle stack maps (even after an error), count stats. Returns 0 or kmaps_drain()'s -errno.
 */
static int offcpu_drain(struct collector *c, struct window *w)
{
	struct offcpu *o = (struct offcpu *)c;
	struct offcpu_bpf *skel = o->skel;
	__u32 idle = kmaps_flip(&skel->bss->active);
	struct drain_ctx d = {
		.o = o,
		.stacks_fd = bpf_map__fd(idle ? skel->maps.stacks1 : skel->maps.stacks0),
		.kstacks_fd = bpf_map__fd(idle ? skel->maps.kstacks1 : skel->maps.kstacks0),
		.ustacks_fd = bpf_map__fd(idle ? skel->maps.ustacks1 : skel->maps.ustacks0),
		.w = w,
	};
	int err;

	if (!o->dwarf)
		d.ustacks_fd = d.stacks_fd;

	err = kmaps_drain(bpf_map__fd(idle ? skel->maps.counts1 : skel->maps.counts0),
			  sizeof(struct offcpu_key), fold_key, &d);
	kmaps_clear(d.stacks_fd);
	kmaps_clear(d.kstacks_fd);
	if (o->dwarf)
		kmaps_clear(d.ustacks_fd);
	report_stats(o, w);
	return err;
}

static void offcpu_detach(struct collector *c)
{
	offcpu_bpf__detach(((struct offcpu *)c)->skel);
}

static void offcpu_free(struct collector *c)
{
	struct offcpu *o = (struct offcpu *)c;

	if (!o)
		return;
	offcpu_bpf__destroy(o->skel);
	sbuf_release(&o->line);
	sbuf_release(&o->waker);
	free(o);
}

static int configure(struct offcpu_bpf *skel, const struct config *cfg, int dwarf)
{
	__u32 ustacks = dwarf ? OFFCPU_MAX_STACKS : 1;
	int err;

	skel->rodata->min_ns = cfg->offcpu_min_us * 1000;
	skel->rodata->max_ns = cfg->offcpu_max_us ? cfg->offcpu_max_us * 1000 : ~0ULL;
	skel->rodata->state_mask = cfg->offcpu_states;
	skel->rodata->threads = cfg->offcpu_threads;
	skel->rodata->filter_pids = cfg->npids > 0;
	skel->rodata->unwind_dwarf = dwarf;
	bpf_program__set_autoload(skel->progs.offcpu_wakeup, cfg->offcpu_waker);
	err = bpf_map__set_max_entries(skel->maps.ustacks0, ustacks);
	return err ?: bpf_map__set_max_entries(skel->maps.ustacks1, ustacks);
}

/* Open, configure and load the BPF object, user stacks walked with tables when dwarf. */
static int open_load(struct offcpu *o, const struct collector_ctx *ctx, int dwarf)
{
	int err;

	offcpu_bpf__destroy(o->skel);
	o->dwarf = dwarf;
	o->skel = offcpu_bpf__open();
	if (!o->skel)
		return -errno;
	err = configure(o->skel, ctx->cfg, dwarf);
	err = err ?: procs_share(ctx->procs, o->skel->obj);
	if (!err && dwarf)
		err = unwind_share(ctx->unwind, o->skel->obj);
	return err ?: offcpu_bpf__load(o->skel);
}

struct collector *offcpu_new(const struct collector_ctx *ctx)
{
	struct offcpu *o = calloc(1, sizeof(*o));
	int err;

	if (!o)
		return NULL;
	o->base = (struct collector){ "offcpu", offcpu_drain, offcpu_detach, offcpu_free };
	o->cfg = ctx->cfg;
	o->sym = ctx->sym;
	err = open_load(o, ctx, ctx->unwind != NULL);
	if (err && ctx->unwind && ctx->cfg->unwind_mode == UNWIND_AUTO) {
		log_warn("off-CPU: the kernel refused the table walker (%s), frame pointers",
			 strerror(-err));
		err = open_load(o, ctx, 0);
	}
	if (err) {
		log_err("cannot load the off-CPU BPF programs: %s", strerror(-err));
		goto cleanup;
	}
	err = kmaps_fill_pids(bpf_map__fd(o->skel->maps.pids), o->cfg);
	err = err ?: offcpu_bpf__attach(o->skel);
	if (err) {
		log_err("cannot attach the off-CPU programs: %s", strerror(-err));
		goto cleanup;
	}
	log_info("off-CPU: blocks of %llu us or more, states 0x%x%s, user stacks by %s",
		 (unsigned long long)o->cfg->offcpu_min_us, o->cfg->offcpu_states,
		 o->cfg->offcpu_waker ? ", with wakers" : "",
		 o->dwarf ? "unwind tables" : "frame pointers");
	return &o->base;
cleanup:
	offcpu_free(&o->base);
	errno = -err;
	return NULL;
}
