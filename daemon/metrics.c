/* SPDX-License-Identifier: BSD-2-Clause */
/* metrics.c - serve emberd's self-metrics to Prometheus over HTTP (loopback or Unix socket) */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "daemon/metrics.h"
#include "lib/sock.h"
#include "daemon/sockserv.h"

struct metrics {
	struct sockserv *srv;
	char unix_path[PATH_MAX]; /* removed at exit */
};

struct metrics *metrics_new(const char *addr, sockserv_fn fn)
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
	m->srv = sockserv_new(fd, "\r\n\r\n", 8192, 1000, fn);
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
