/* SPDX-License-Identifier: BSD-2-Clause */
/* metrics.c - serve emberd's self-metrics to Prometheus over HTTP (loopback or Unix socket) */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/report.h"
#include "daemon/sock.h"
#include "daemon/sockserv.h"

struct metrics {
	struct sockserv *srv;
	char unix_path[PATH_MAX]; /* removed at exit */
};

static void metrics_request(void *arg, const char *req, size_t len, struct sbuf *out);

struct metrics *metrics_new(const char *addr)
{
	struct metrics *m = calloc(1, sizeof(*m));
	int err, fd;

	if (!m)
		return NULL;
	fd = sock_listen_addr(addr);
	if (fd < 0) {
		err = fd;
		log_err("cannot serve metrics on '%s': %s", addr,
			err == -EINVAL       ? "expected 127.0.0.1:PORT, [::1]:PORT or unix:PATH"
			: err == -EACCES     ? "not a loopback address"
			: err == -EADDRINUSE ? "address in use"
					     : strerror(-err));
		free(m);
		errno = -err;
		return NULL;
	}
	if (!strncmp(addr, "unix:", 5))
		snprintf(m->unix_path, sizeof(m->unix_path), "%s", addr + 5);
	/* Read the headers too: closing on unread data would reset the connection. */
	m->srv = sockserv_new(fd, "\r\n\r\n", 8192, 1000, metrics_request);
	if (!m->srv) {
		close(fd);
		metrics_free(m);
		errno = ENOMEM;
		return NULL;
	}
	log_info("serving metrics on '%s'", addr);
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	sockserv_free(m->srv);
	if (m->unix_path[0])
		unlink(m->unix_path);
	free(m);
}

struct sockserv *metrics_server(const struct metrics *m)
{
	return m->srv;
}

static void reply(struct sbuf *out, const char *status, const struct sbuf *body)
{
	sbuf_addf(out,
		  "HTTP/1.0 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
		  "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		  status, body->len);
	if (body->len)
		sbuf_add(out, body->buf, body->len);
}

static void metrics_request(void *arg, const char *req, size_t len, struct sbuf *out)
{
	const struct emberd *d = arg;
	struct sbuf body = SBUF_INIT;

	if (!strncmp(req, "GET /metrics ", 13) || !strncmp(req, "GET /metrics?", 13)) {
		if (report_metrics(d, &body))
			reply(out, "500 Internal Server Error", &body);
		else
			reply(out, "200 OK", &body);
	} else {
		sbuf_addstr(&body, "ember: metrics are at /metrics\n");
		reply(out, "404 Not Found", &body);
	}
	sbuf_release(&body);
}
