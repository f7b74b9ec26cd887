/* SPDX-License-Identifier: BSD-2-Clause */
/* symreport.h - tell the operator what the symbolizer could not name, once and not every minute */
#ifndef EMBER_SYMREPORT_H
#define EMBER_SYMREPORT_H

#include <stdint.h>
#include <time.h>

#include "symbolize/symbolize.h"
#include "daemon/collect/window.h"

/* Below this share of named frames a window is reported (rate-limited). */
#define SYMREPORT_LOW_SHARE 0.8
#define SYMREPORT_MIN_FRAMES 100
#define SYMREPORT_INTERVAL_SEC 3600

struct symreport {
	int kernel_said;      /* kallsyms zeros reported */
	uint64_t low_windows; /* low windows not reported yet */
	time_t last_warn;     /* 0: never */
};

/* Called at the end of each window: logs cache sizes (debug) and what went unnamed. */
void symreport_window(struct symreport *r, const struct symbolizer *sym, const struct window *w,
		      time_t now);

#endif
