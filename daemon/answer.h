/* SPDX-License-Identifier: BSD-2-Clause */
/* answer.h - what emberd answers on its control and metrics sockets (sockserv_fn handlers) */
#ifndef EMBER_ANSWER_H
#define EMBER_ANSWER_H

#include <stddef.h>

#include "lib/sbuf.h"

/* One command a connection, arg the struct emberd: "snapshot" or "status", a line. */
void answer_control(void *arg, const char *req, size_t len, struct sbuf *out);
/* An HTTP request, arg the struct emberd: GET /metrics answers, any other path 404. */
void answer_metrics(void *arg, const char *req, size_t len, struct sbuf *out);

#endif
