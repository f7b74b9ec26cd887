/* SPDX-License-Identifier: BSD-2-Clause */
/* output.c - a window's way to disk: write it, count it, survive a full disk, apply retention */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/archdir.h"
#include "daemon/emberd.h"
#include "daemon/kmaps.h"
#include "daemon/log.h"

static double mono_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void collector_names(const struct emberd *d, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->ncollectors && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? "," : "",
				d->collectors[i]->name);
}

/* A full or failing disk: say so once, then once when writing works again. */
static void note_result(struct emberd *d, int n, int snapshot)
{
	struct selfstats *s = &d->stats;

	if (n < 0) {
		if (!snapshot)
			s->windows_dropped++;
		if (s->write_failing != n)
			log_err("cannot write %s to '%s': %s; collection goes on, windows are "
				"dropped whole until writing works",
				snapshot ? "a snapshot" : "a window", d->cfg.output_dir,
				strerror(-n));
		s->write_failing = n;
		return;
	}
	if (s->write_failing)
		log_info("writing to '%s' works again; %llu window(s) dropped so far",
			 d->cfg.output_dir, (unsigned long long)s->windows_dropped);
	s->write_failing = 0;
}

static void apply_retention(struct emberd *d, time_t now)
{
	struct archdir_prune_stats ps;
	double t0 = mono_sec();
	int err = archdir_prune(d->cfg.output_dir, now, (uint64_t)d->cfg.retain_days * 86400,
				d->cfg.retain_bytes, &ps);

	if (err)
		log_warn("retention: cannot delete under '%s': %s, ignoring", d->cfg.output_dir,
			 strerror(-err));
	if (ps.windows)
		log_debug("retention: deleted %llu window(s), %llu bytes",
			  (unsigned long long)ps.windows, (unsigned long long)ps.bytes);
	d->stats.last_retention_sec = mono_sec() - t0;
	d->stats.pruned_windows += ps.windows;
	d->stats.archive_bytes = ps.kept_bytes;
}

static void count_window(struct emberd *d, const struct window *w, time_t end)
{
	struct selfstats *s = &d->stats;

	for (int k = 0; k < KIND_MAX; k++) {
		s->samples[k] += w->stats[k].samples;
		s->lost[k] += w->stats[k].lost;
	}
	s->last_samples = w->stats[KIND_ONCPU].samples;
	s->last_len = end > w->start ? (unsigned int)(end - w->start) : 1;
}

int emberd_write(struct emberd *d, time_t end, int snapshot, struct archive_result *res)
{
	struct archive_info info = { .end = end, .snapshot = snapshot };
	struct archive_result r;
	struct symbolizer_stats ss;
	char names[128];
	double t0 = mono_sec();
	int n;

	collector_names(d, names, sizeof(names));
	symbolizer_get_stats(d->sym, &ss);
	info.collectors = names;
	info.frames = ss.frames - d->stats.sym_frames;
	info.named = ss.named - d->stats.sym_named;
	n = archive_write(&d->cfg, d->win, &info, &r);
	note_result(d, n, snapshot);
	if (n > 0) {
		snprintf(d->stats.last_path, sizeof(d->stats.last_path), "%s/%s", r.dir, r.stem);
		d->stats.last_written = end;
		d->stats.last_write_sec = mono_sec() - t0;
		log_debug("%s written in %.1f ms: %d file(s), %llu bytes",
			  snapshot ? "snapshot" : "window", 1000 * d->stats.last_write_sec, r.files,
			  (unsigned long long)r.bytes);
		d->stats.snapshots += snapshot;
		d->stats.windows_written += !snapshot;
		if (res)
			*res = r;
	}
	if (snapshot)
		return n;
	count_window(d, d->win, end);
	d->stats.map_fill = kmaps_peak_fill();
	d->stats.last_frames = info.frames;
	d->stats.last_named = info.named;
	d->stats.sym_frames = ss.frames;
	d->stats.sym_named = ss.named;
	apply_retention(d, time(NULL));
	return n;
}
