/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sockserv.h - one request, one reply, many clients at once, from the event loop and
 * never blocking it: a client that sends nothing or reads slowly only waits for itself.
 */
#ifndef EMBER_SOCKSERV_H
#define EMBER_SOCKSERV_H

#include <stddef.h>
#include <stdint.h>

#include "lib/sbuf.h"

#define SOCKSERV_MAX_CLIENTS 16

/*
 * Answer one request: req holds what the client sent (up to its end marker, its end of
 * stream or the size limit), NUL-terminated. Append the reply to out (empty: none).
 */
typedef void (*sockserv_fn)(void *arg, const char *req, size_t len, struct sbuf *out);

struct sockserv;

/*
 * Serve the listening socket lfd (taken over): a request ends at the string stop, is at
 * most max bytes, and each client has timeout_ms for its whole exchange.
 */
struct sockserv *sockserv_new(int lfd, const char *stop, size_t max, int timeout_ms,
			      sockserv_fn fn);
void sockserv_free(struct sockserv *s);

/* Watch the listener in epfd; every event of this server carries tag in its low 32 bits. */
int sockserv_watch(struct sockserv *s, int epfd, uint32_t tag);

/* Handle one epoll event of this server; fn gets arg. */
void sockserv_event(struct sockserv *s, uint64_t data, uint32_t events, void *arg);

/* Close the clients past their time; returns ms until the next deadline, -1 for none. */
int sockserv_expire(struct sockserv *s);

#endif
