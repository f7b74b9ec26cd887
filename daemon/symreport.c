/* SPDX-License-Identifier: BSD-2-Clause */
/* symreport.c - tell the operator what the symbolizer could not name, once and not every minute */
#include <inttypes.h>

#include "lib/log.h"
#include "daemon/symreport.h"

static void symreport_caches(const struct symbolizer_stats *st)
{
	log_debug("symbolizer: %" PRIu64 " processes (cap %" PRIu64 "), %" PRIu64
		  " files (cap %" PRIu64 " idle, %" PRIu64 " not read yet), %" PRIu64
		  " symbol tables, %" PRIu64 " KiB; %" PRIu64 " ELF reads, %" PRIu64
		  " maps reads, %" PRIu64 " exit records",
		  st->procs, st->max_procs, st->dsos, st->max_dsos, st->dsos_pending, st->symsets,
		  st->cache_bytes >> 10, st->elf_loads, st->maps_reads, st->exit_maps);
	if (st->debuginfod)
		log_debug("debuginfod: %" PRIu64 " asked, %" PRIu64 " found, %" PRIu64
			  " missing, %" PRIu64 " failed, %" PRIu64 " skipped",
			  st->dinfod.asked, st->dinfod.found, st->dinfod.missing, st->dinfod.failed,
			  st->dinfod.skipped);
}

/* The worst kind of this window: 1 and its share when it is low. */
static int symreport_low(const struct window *w, int *kind, double *share)
{
	int found = 0;

	for (int k = 0; k < KIND_MAX; k++) {
		const struct window_stats *ws = &w->stats[k];
		double s;

		if (ws->frames < SYMREPORT_MIN_FRAMES)
			continue;
		s = (double)ws->named / (double)ws->frames;
		if (s < SYMREPORT_LOW_SHARE && (!found || s < *share)) {
			found = 1;
			*kind = k;
			*share = s;
		}
	}
	return found;
}

void symreport_window(struct symreport *r, const struct symbolizer *sym, const struct window *w,
		      time_t now)
{
	struct symbolizer_stats st;
	double share = 1;
	int kind = 0;

	symbolizer_get_stats(sym, &st);
	symreport_caches(&st);
	if (st.kernel_restricted && !r->kernel_said) {
		r->kernel_said = 1;
		log_warn(
			"kernel symbols are hidden (/proc/kallsyms shows zero addresses: no "
			"CAP_SYSLOG or kptr_restrict): kernel frames are written [kernel]+0xADDRESS");
	}
	if (!symreport_low(w, &kind, &share))
		return;
	r->low_windows++;
	if (r->last_warn && now - r->last_warn < SYMREPORT_INTERVAL_SEC)
		return;
	log_warn("%s: only %.0f%% of the window's frames are named (%" PRIu64
		 " low window(s) since the last report): missing symbols or debug files, or "
		 "processes gone before they were seen",
		 profile_kind_names[kind], share * 100, r->low_windows);
	r->low_windows = 0;
	r->last_warn = now;
}
