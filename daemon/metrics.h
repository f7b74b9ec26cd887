/* SPDX-License-Identifier: BSD-2-Clause */
/* metrics.h - serve emberd's self-metrics to Prometheus over HTTP (loopback or Unix socket) */
#ifndef EMBER_METRICS_H
#define EMBER_METRICS_H

struct emberd;
struct metrics;

/* Listen on addr (see sock_listen_addr()). NULL with errno set, after logging why. */
struct metrics *metrics_new(const char *addr);
void metrics_free(struct metrics *m);
int metrics_fd(const struct metrics *m);

/* Answer one scrape: GET /metrics gets the exposition, any other path 404. */
void metrics_serve(struct metrics *m, const struct emberd *d);

#endif
