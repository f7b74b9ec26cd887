/* SPDX-License-Identifier: BSD-2-Clause */
/* emberd.h - the daemon's state: collectors, the current window, and its event loop */
#ifndef EMBER_EMBERD_H
#define EMBER_EMBERD_H

#include <signal.h>
#include <time.h>

#include "daemon/archive.h"
#include "daemon/collect/collector.h"
#include "daemon/config/config.h"
#include "daemon/selfstats.h"
#include "daemon/symreport.h"

#define EMBERD_MAX_COLLECTORS 4

struct emberd {
	struct config cfg;
	struct config_cli cli; /* kept for SIGHUP: the file is re-read, the flags re-applied */
	int argc;
	char **argv;
	struct symbolizer *sym;
	struct procs *procs;
	struct unwind *unwind; /* NULL: --unwind fp, or the tables could not be set up */
	struct collector *collectors[EMBERD_MAX_COLLECTORS];
	unsigned int kinds[EMBERD_MAX_COLLECTORS]; /* each collector's enum collector_mask bit */
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

/* Start the collectors in mask (enum collector_mask); one that fails is reported and skipped. */
void emberd_start_collectors(struct emberd *d, unsigned int mask);
/* Stop the collectors in mask; what they counted goes into the current window first. */
void emberd_stop_collectors(struct emberd *d, unsigned int mask);
/* Move what every collector counted into the current window. Returns 0 or -errno (logged). */
int emberd_drain(struct emberd *d);

/*
 * Re-read the configuration (SIGHUP) and apply it: the current window keeps all it
 * gathered. Returns 0, or -errno when the new one is invalid (logged; the old one stays).
 */
int emberd_reload(struct emberd *d);

/*
 * Block the signals the loop reads from its signalfd; done before the collectors load,
 * so a SIGHUP or SIGUSR1 during start-up waits for the loop instead of killing emberd.
 */
int emberd_block_signals(sigset_t *mask);
/* Seconds between drains: the largest divisor of the window up to DRAIN_MAX_SEC. */
unsigned int emberd_drain_period(const struct config *cfg);
/* Run until SIGTERM/SIGINT; the last window is written before returning. Returns 0 or -errno. */
int emberd_loop(struct emberd *d);

/* output.c: the way of a window to disk. */

/* Write the current window as it stands, ending at END; the next one starts there. */
int emberd_close_window(struct emberd *d, time_t end);
/*
 * Drain and write a snapshot now. Returns 0 or -errno (logged); res, when not NULL, gets
 * where the files went.
 */
int emberd_snapshot(struct emberd *d, struct archive_result *res);
/* Tell systemd the one-line STATUS again (after a start or a reload). */
void emberd_notify_status(const struct emberd *d);

#endif
