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

struct metrics {
	int fd;
	char unix_path[PATH_MAX]; /* removed at exit */
};

struct metrics *metrics_new(const char *addr)
{
	struct metrics *m = calloc(1, sizeof(*m));
	int err;

	if (!m)
		return NULL;
	m->fd = sock_listen_addr(addr);
	if (m->fd < 0) {
		err = m->fd;
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
	log_info("serving metrics on '%s'", addr);
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	close(m->fd);
	if (m->unix_path[0])
		unlink(m->unix_path);
	free(m);
}

int metrics_fd(const struct metrics *m)
{
	return m->fd;
}

static void reply(int fd, const char *status, const struct sbuf *body)
{
	char head[256];
	int n = snprintf(head, sizeof(head),
			 "HTTP/1.0 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			 status, body->len);

	if (!sock_write_all(fd, head, (size_t)n) && body->len)
		sock_write_all(fd, body->buf, body->len);
}

void metrics_serve(struct metrics *m, const struct emberd *d)
{
	struct sbuf req = SBUF_INIT, body = SBUF_INIT;
	int fd = sock_accept(m->fd, 1000);

	if (fd < 0)
		return;
	/* Read the headers too: closing on unread data would reset the connection. */
	if (sock_read(fd, &req, 8192, "\r\n\r\n") || !req.len)
		goto cleanup;
	if (!strncmp(req.buf, "GET /metrics ", 13) || !strncmp(req.buf, "GET /metrics?", 13)) {
		if (report_metrics(d, &body))
			reply(fd, "500 Internal Server Error", &body);
		else
			reply(fd, "200 OK", &body);
	} else {
		sbuf_addstr(&body, "ember: metrics are at /metrics\n");
		reply(fd, "404 Not Found", &body);
	}
cleanup:
	close(fd);
	sbuf_release(&req);
	sbuf_release(&body);
}
