/* SPDX-License-Identifier: BSD-2-Clause */
/* report.h - the daemon's state as text: `ember status` lines and Prometheus exposition */
#ifndef EMBER_REPORT_H
#define EMBER_REPORT_H

#include "lib/sbuf.h"
#include "daemon/emberd.h"

/* Human-readable "key: value" lines. Returns 0 or -ENOMEM. */
int report_status(const struct emberd *d, struct sbuf *out);

/* Prometheus text exposition format 0.0.4. Returns 0 or -ENOMEM. */
int report_metrics(const struct emberd *d, struct sbuf *out);

/* Resident set size of this process in bytes (0 if unknown). */
uint64_t report_rss(void);

#endif
