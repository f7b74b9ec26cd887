/* SPDX-License-Identifier: BSD-2-Clause */
/* emberd.h - the daemon's state: collectors, the current window, and its event loop */
#ifndef EMBER_EMBERD_H
#define EMBER_EMBERD_H

#include <time.h>

#include "daemon/archive.h"
#include "daemon/collector.h"
#include "daemon/config.h"
#include "daemon/selfstats.h"
#include "daemon/symreport.h"

#define EMBERD_MAX_COLLECTORS 4

struct emberd {
	struct config cfg;
	struct symbolizer *sym;
	struct procs *procs;
	struct collector *collectors[EMBERD_MAX_COLLECTORS];
	int ncollectors;
	struct window *win;
	struct symreport symrep;
	struct selfstats stats;
	struct control *control; /* NULL: no control socket */
	struct metrics *metrics; /* NULL: off */
};

/* Start the collectors the config asks for. Returns 0 or -errno (logged). */
int emberd_start(struct emberd *d);
void emberd_stop(struct emberd *d);

/* Run until SIGTERM/SIGINT; the last window is written before returning. Returns 0 or -errno. */
int emberd_loop(struct emberd *d);

/*
 * Write the current window (a snapshot of it with snapshot set), count it,
 * apply retention after a window. res may be NULL. Returns profiles written or -errno (logged).
 */
int emberd_write(struct emberd *d, time_t end, int snapshot, struct archive_result *res);

/* Drain and write a snapshot now. Returns 0 or -errno (logged); res as emberd_write(). */
int emberd_snapshot(struct emberd *d, struct archive_result *res);

#endif
