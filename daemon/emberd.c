/* SPDX-License-Identifier: BSD-2-Clause */
/* emberd.c - start and stop the daemon's parts in order */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "daemon/answer.h"
#include "daemon/control.h"
#include "daemon/emberd.h"
#include "daemon/metrics.h"
#include "lib/log.h"

static const struct {
	unsigned int mask;
	struct collector *(*create)(const struct collector_ctx *ctx);
} collector_table[] = {
	{ COLLECT_ONCPU, oncpu_new },
	{ COLLECT_OFFCPU, offcpu_new },
	{ COLLECT_MEMORY, mem_new },
};

/* Older kernels charge BPF maps to RLIMIT_MEMLOCK; newer ones to the memory cgroup. */
static void raise_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	if (setrlimit(RLIMIT_MEMLOCK, &r))
		log_debug("cannot raise RLIMIT_MEMLOCK: %s, ignoring", strerror(errno));
}

/* Unwind tables unless --unwind fp; with auto, frame pointers when they cannot be had. */
static int start_unwind(struct emberd *d)
{
	if (d->cfg.unwind_mode == UNWIND_FP)
		return 0;
	d->unwind = unwind_new(&d->cfg);
	if (!d->unwind && d->cfg.unwind_mode == UNWIND_DWARF)
		return -errno;
	if (!d->unwind) {
		log_warn("user stacks from frame pointers only");
		return 0;
	}
	procs_set_listener(d->procs, unwind_note, d->unwind);
	/* The processes chosen with -p have tables before their first sample. */
	for (size_t i = 0; i < d->cfg.npids; i++)
		unwind_note(d->unwind, EMBER_PROC_NEW, d->cfg.pids[i]);
	return 0;
}

int emberd_start(struct emberd *d)
{
	struct symbolizer_opts so = { .demangle = !d->cfg.raw_names, .inlines = d->cfg.inlines };
	char cache[sizeof(d->cfg.output_dir) + 16];
	int err;

	raise_memlock();
	if (d->cfg.debuginfod_urls[0]) {
		snprintf(cache, sizeof(cache), "%s/.debuginfod", d->cfg.output_dir);
		so.debuginfod_urls = d->cfg.debuginfod_urls;
		so.debuginfod_cache = cache;
		so.debuginfod_timeout_sec = d->cfg.debuginfod_timeout_sec;
		log_info("debuginfod: asking %s for missing debug files (timeout %u s, cache %s)",
			 so.debuginfod_urls, so.debuginfod_timeout_sec, cache);
	}
	d->sym = symbolizer_new(&so);
	if (!d->sym) {
		err = -errno;
		log_err("cannot create the symbolizer: %s", strerror(-err));
		return err;
	}
	d->procs = procs_new(d->sym);
	if (!d->procs)
		return -errno;
	err = start_unwind(d);
	if (err)
		return err;
	d->win = window_new(0);
	if (!d->win)
		return -ENOMEM;
	d->stats.started = time(NULL);
	if (d->cfg.metrics[0] && !(d->metrics = metrics_new(d->cfg.metrics, answer_metrics)))
		return -errno;
	emberd_start_collectors(d, d->cfg.collect);
	if (!d->ncollectors) {
		log_err("no collector could be started");
		return -ENODEV;
	}
	d->control = control_new(d->cfg.run_dir, answer_control);
	return 0;
}

void emberd_start_collectors(struct emberd *d, unsigned int mask)
{
	struct collector_ctx ctx = { &d->cfg, d->sym, d->procs, d->unwind };

	for (size_t i = 0; i < sizeof(collector_table) / sizeof(collector_table[0]); i++) {
		struct collector *c;

		if (!(mask & collector_table[i].mask) || d->ncollectors == EMBERD_MAX_COLLECTORS)
			continue;
		c = collector_table[i].create(&ctx);
		if (!c)
			continue; /* reported; the others go on */
		d->kinds[d->ncollectors] = collector_table[i].mask;
		d->collectors[d->ncollectors++] = c;
	}
}

/* Detach, then drain both buffers into the current window: nothing counted is lost. */
void emberd_stop_collectors(struct emberd *d, unsigned int mask)
{
	int kept = 0;

	for (int i = 0; i < d->ncollectors; i++) {
		struct collector *c = d->collectors[i];

		if (!(mask & d->kinds[i])) {
			d->kinds[kept] = d->kinds[i];
			d->collectors[kept++] = c;
			continue;
		}
		c->detach(c);
		for (int pass = 0; pass < 2; pass++)
			if (c->drain(c, d->win))
				log_err("cannot drain the %s collector, ignoring", c->name);
		c->free(c);
	}
	d->ncollectors = kept;
}

int emberd_drain(struct emberd *d)
{
	int err = 0;

	for (int i = 0; i < d->ncollectors; i++) {
		int e = d->collectors[i]->drain(d->collectors[i], d->win);

		if (e) {
			log_err("cannot drain the %s collector: %s", d->collectors[i]->name,
				strerror(-e));
			err = e;
		}
	}
	return err;
}

void emberd_stop(struct emberd *d)
{
	for (int i = 0; i < d->ncollectors; i++)
		d->collectors[i]->free(d->collectors[i]);
	d->ncollectors = 0;
	control_free(d->control);
	d->control = NULL;
	metrics_free(d->metrics);
	d->metrics = NULL;
	window_free(d->win);
	d->win = NULL;
	if (d->procs)
		procs_set_listener(d->procs, NULL, NULL);
	unwind_free(d->unwind);
	d->unwind = NULL;
	procs_free(d->procs);
	d->procs = NULL;
	symbolizer_free(d->sym);
	d->sym = NULL;
}
