/* SPDX-License-Identifier: BSD-2-Clause */
/* metrics.h - serve emberd's self-metrics to Prometheus over HTTP (loopback or Unix socket) */
#ifndef EMBER_METRICS_H
#define EMBER_METRICS_H

#include "daemon/sockserv.h"

struct metrics;

/* Listen on addr (see sock_listen_addr()). NULL with errno set, after logging why. */
struct metrics *metrics_new(const char *addr, sockserv_fn fn);
void metrics_free(struct metrics *m);
/* The server answering scrapes with fn (see answer_metrics()). */
struct sockserv *metrics_server(const struct metrics *m);

#endif
