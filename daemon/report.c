/* SPDX-License-Identifier: BSD-2-Clause */
/* report.c - the daemon's state as text: `ember status` lines and Prometheus exposition */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "daemon/report.h"

uint64_t report_rss(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%*u %llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 1.0;
}

static void status_collectors(const struct emberd *d, struct sbuf *out)
{
	sbuf_addstr(out, "collectors:");
	for (int i = 0; i < d->ncollectors; i++)
		sbuf_addf(out, " %s", d->collectors[i]->name);
	sbuf_addstr(out, d->ncollectors ? "\n" : " none\n");
}

static void status_kinds(const struct selfstats *s, struct sbuf *out)
{
	for (int k = 0; k < KIND_MAX; k++)
		if (s->samples[k] || s->lost[k])
			sbuf_addf(out,
				  "%s: %" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
				  " weight on lost stacks\n",
				  profile_kind_names[k], s->samples[k], s->lost[k],
				  s->lost_stacks[k]);
	for (int k = 0; k < KIND_MAX; k++)
		if (s->walks[k])
			sbuf_addf(out,
				  "%s user stacks: %.1f%% whole (%" PRIu64 " of %" PRIu64
				  " walks)\n",
				  profile_kind_names[k],
				  100.0 * (double)s->whole[k] / (double)s->walks[k], s->whole[k],
				  s->walks[k]);
}

int report_status(const struct emberd *d, struct sbuf *out)
{
	const struct selfstats *s = &d->stats;
	struct symbolizer_stats ss;
	char when[32] = "never";
	struct tm tm;

	symbolizer_get_stats(d->sym, &ss);
	if (s->last_written) {
		localtime_r(&s->last_written, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	}
	sbuf_addf(out, "pid: %d\nuptime: %lld s\n", (int)getpid(),
		  (long long)(time(NULL) - s->started));
	status_collectors(d, out);
	sbuf_addf(out, "samples per second: %.1f (on-CPU, last window)\n",
		  (double)s->last_samples / (s->last_len ? s->last_len : 1));
	status_kinds(s, out);
	sbuf_addf(out, "map fill: %.1f%% (fullest count map, last window)\n", 100 * s->map_fill);
	sbuf_addf(out, "frames named: %.1f%% (last window)\n",
		  100 * share(s->last_named, s->last_frames));
	sbuf_addf(out, "caches: %" PRIu64 " processes, %" PRIu64 " ELF files, %" PRIu64 " bytes\n",
		  ss.procs, ss.dsos, ss.cache_bytes);
	sbuf_addf(out, "rss: %" PRIu64 " bytes\n", report_rss());
	sbuf_addf(out, "output: %s, %" PRIu64 " bytes used\n", d->cfg.output_dir, s->archive_bytes);
	sbuf_addf(out,
		  "windows: %" PRIu64 " written, %" PRIu64 " dropped, %" PRIu64 " pruned; %" PRIu64
		  " snapshots\n",
		  s->windows_written, s->windows_dropped, s->pruned_windows, s->snapshots);
	sbuf_addf(out, "last written: %s %s\n", when, s->last_written ? s->last_path : "");
	return sbuf_addf(out, "writing: %s\n", s->write_failing ? "failing" : "ok");
}

static void metric(struct sbuf *out, const char *name, const char *type, const char *help, double v)
{
	sbuf_addf(out, "# HELP ember_%s %s\n# TYPE ember_%s %s\nember_%s %.17g\n", name, help, name,
		  type, name, v);
}

static void metric_kinds(struct sbuf *out, const char *name, const char *help, const uint64_t *v)
{
	sbuf_addf(out, "# HELP ember_%s %s\n# TYPE ember_%s counter\n", name, help, name);
	for (int k = 0; k < KIND_MAX; k++)
		sbuf_addf(out, "ember_%s{kind=\"%s\"} %" PRIu64 "\n", name, profile_kind_names[k],
			  v[k]);
}

int report_metrics(const struct emberd *d, struct sbuf *out)
{
	const struct selfstats *s = &d->stats;
	struct symbolizer_stats ss;

	symbolizer_get_stats(d->sym, &ss);
	metric_kinds(out, "samples_total", "Events counted into profiles.", s->samples);
	metric_kinds(out, "lost_samples_total", "Events dropped (maps full, stacks lost).",
		     s->lost);
	metric_kinds(out, "user_stack_walks_total", "User stacks walked with unwind tables.",
		     s->walks);
	metric_kinds(
		out, "user_stack_whole_total",
		"User stacks walked with unwind tables that reached the process or thread entry.",
		s->whole);
	metric_kinds(out, "lost_stack_weight_total",
		     "Weight counted on a [lost user stack] or [lost kernel stack] frame.",
		     s->lost_stacks);
	metric(out, "collectors", "gauge", "Collectors attached.", d->ncollectors);
	metric(out, "map_fill_ratio", "gauge", "Fullest kernel count map in the last window.",
	       s->map_fill);
	metric(out, "window_write_seconds", "gauge", "Time to write the last window.",
	       s->last_write_sec);
	metric(out, "retention_seconds", "gauge", "Time the last retention check took.",
	       s->last_retention_sec);
	metric(out, "symbolized_frames_ratio", "gauge", "Share of frames named, last window.",
	       share(s->last_named, s->last_frames));
	metric(out, "symbol_cache_bytes", "gauge", "Memory held by symbol caches.",
	       (double)ss.cache_bytes);
	metric(out, "resident_memory_bytes", "gauge", "Resident set size of emberd.",
	       (double)report_rss());
	metric(out, "archive_bytes", "gauge", "Disk used by the archive.",
	       (double)s->archive_bytes);
	metric(out, "windows_written_total", "counter", "Windows written.",
	       (double)s->windows_written);
	metric(out, "windows_dropped_total", "counter", "Windows that could not be written.",
	       (double)s->windows_dropped);
	metric(out, "windows_pruned_total", "counter", "Windows deleted by retention.",
	       (double)s->pruned_windows);
	metric(out, "last_window_timestamp_seconds", "gauge",
	       "When the last window or snapshot was written.", (double)s->last_written);
	return out->buf ? 0 : -ENOMEM;
}
