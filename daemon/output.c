/* SPDX-License-Identifier: BSD-2-Clause */
/* output.c - a window's way to disk: write it, count it, survive a full disk, apply retention,
 * start the next; the one place the loop, the reload and a snapshot write from */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/archdir.h"
#include "daemon/emberd.h"
#include "daemon/notify.h"
#include "daemon/collect/kmaps.h"
#include "lib/log.h"

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

/*
 * Count a window's table walks of kind k; when under 80% of them reached the outermost frame
 * (at least 100 walks), say so, at most once an hour a kind: tables missing or not loaded yet,
 * JIT code, or stacks deeper than the limit.
 */
static void walks_of(struct selfstats *s, int k, const struct unwind_walks *u, time_t end)
{
	uint64_t n = u->walked ? u->walked : u->complete + u->cut + u->no_table;

	s->walks[k] += n;
	s->whole[k] += u->complete;
	if (n < 100 || u->complete * 5 >= n * 4 || end - s->walks_warned[k] < 3600)
		return;
	s->walks_warned[k] = end;
	log_warn("%s: only %.0f%% of user stacks were whole (%llu of %llu walks reached the "
		 "process or thread entry; %llu cut at the depth limit, %llu before their tables)",
		 profile_kind_names[k], 100.0 * (double)u->complete / (double)n,
		 (unsigned long long)u->complete, (unsigned long long)n, (unsigned long long)u->cut,
		 (unsigned long long)u->no_table);
}

static void count_window(struct emberd *d, const struct window *w, time_t end)
{
	struct selfstats *s = &d->stats;

	for (int k = 0; k < KIND_MAX; k++) {
		s->samples[k] += w->stats[k].samples;
		s->lost[k] += w->stats[k].lost;
		s->lost_stacks[k] += w->stats[k].lost_stacks;
		walks_of(s, k, &w->stats[k].walks, end);
	}
	s->last_samples = w->stats[KIND_ONCPU].samples;
	s->last_len = end > w->start ? (unsigned int)(end - w->start) : 1;
}

/*
 * Write the current window (a snapshot of it with snapshot set), count it, apply retention
 * after a window. res may be NULL. Returns profiles written or -errno (logged).
 */
static int emberd_write(struct emberd *d, time_t end, int snapshot, struct archive_result *res)
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

/*
 * systemd's one-line STATUS: what runs, where it writes, how the last write went
 * (end 0: no new write to report).
 */
static void notify_status_line(const struct emberd *d, int written, time_t end)
{
	static time_t last_end;
	static int last_written;
	char names[64] = "", when[16] = "none yet";
	size_t used = 0;
	struct tm tm;

	if (end) {
		last_end = end;
		last_written = written;
	}
	end = last_end;
	written = last_written;

	for (int i = 0; i < d->ncollectors && used < sizeof(names); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s", i ? "," : "",
				 d->collectors[i]->name);
	if (end && localtime_r(&end, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	notify_send("STATUS=collectors %s; %us windows to %s; last write %s: %s",
		    used ? names : "none", d->cfg.window_sec, d->cfg.output_dir, when,
		    written < 0 ? "FAILED"
		    : written   ? "ok"
				: "empty");
}

/* Write the current window (or a snapshot of it) and, unless a snapshot, start the next. */
static int write_window(struct emberd *d, time_t end, int snapshot, struct archive_result *res)
{
	unsigned int both = COLLECT_ONCPU | COLLECT_OFFCPU;
	int n = (d->cfg.collect & both) == both ? window_hotcold(d->win, d->cfg.freq) : 0;

	if (n)
		log_err("cannot build the hot/cold profile: %s, ignoring", strerror(-n));
	n = emberd_write(d, end, snapshot, res);
	if (n > 0)
		log_info("%s written: %d profile(s)", snapshot ? "snapshot" : "window", n);
	notify_status_line(d, n, end);
	if (snapshot)
		return n < 0 ? n : 0;
	symreport_window(&d->symrep, d->sym, d->win, end);
	struct window *next = window_new(end);
	if (!next)
		return -ENOMEM;
	window_free(d->win);
	d->win = next;
	symbolizer_end_window(d->sym);
	return n < 0 ? n : 0;
}

int emberd_close_window(struct emberd *d, time_t end)
{
	return write_window(d, end, 0, NULL);
}

int emberd_snapshot(struct emberd *d, struct archive_result *res)
{
	struct timespec ts;

	emberd_drain(d);
	clock_gettime(CLOCK_REALTIME, &ts);
	return write_window(d, ts.tv_sec, 1, res);
}

void emberd_notify_status(const struct emberd *d)
{
	notify_status_line(d, 0, 0);
}
