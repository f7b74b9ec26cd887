/* SPDX-License-Identifier: BSD-2-Clause */
/* emberd.c - start and stop the daemon's parts in order */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "daemon/emberd.h"
#include "daemon/log.h"

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

int emberd_start(struct emberd *d)
{
	struct symbolizer_opts so = { .demangle = !d->cfg.raw_names, .inlines = d->cfg.inlines };
	struct collector_ctx ctx;
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
	d->win = window_new(0);
	if (!d->win)
		return -ENOMEM;
	ctx = (struct collector_ctx){ &d->cfg, d->sym, d->procs };
	for (size_t i = 0; i < sizeof(collector_table) / sizeof(collector_table[0]); i++) {
		struct collector *c;

		if (!(d->cfg.collect & collector_table[i].mask))
			continue;
		c = collector_table[i].create(&ctx);
		if (!c)
			continue; /* reported; the others go on */
		d->collectors[d->ncollectors++] = c;
	}
	if (!d->ncollectors) {
		log_err("no collector could be started");
		return -ENODEV;
	}
	return 0;
}

void emberd_stop(struct emberd *d)
{
	for (int i = 0; i < d->ncollectors; i++)
		d->collectors[i]->free(d->collectors[i]);
	d->ncollectors = 0;
	window_free(d->win);
	d->win = NULL;
	procs_free(d->procs);
	d->procs = NULL;
	symbolizer_free(d->sym);
	d->sym = NULL;
}
