/* SPDX-License-Identifier: BSD-2-Clause */
/* control.c - emberd's control socket (snapshot, status) and pid file */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/archive.h"
#include "daemon/control.h"
#include "lib/log.h"
#include "lib/sock.h"
#include "daemon/sockserv.h"

struct control {
	struct sockserv *srv;
	char sock[PATH_MAX], pidfile[PATH_MAX];
};

/*
 * Write our pid to path through a new temporary beside it: created exclusively and without
 * following links (the run folder may be shared), then renamed over path.
 */
static int write_pidfile(const char *path)
{
	char tmp[PATH_MAX + 8], line[16];
	int fd, len, err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp); /* left by a crash */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	len = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	if (write(fd, line, (size_t)len) != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int control_open(struct control *c, const char *run_dir, sockserv_fn fn)
{
	int err, fd;

	if ((size_t)snprintf(c->sock, sizeof(c->sock), "%s/" CONTROL_SOCKET, run_dir) >=
		    sizeof(c->sock) ||
	    (size_t)snprintf(c->pidfile, sizeof(c->pidfile), "%s/" CONTROL_PIDFILE, run_dir) >=
		    sizeof(c->pidfile))
		return -ENAMETOOLONG;
	err = archive_mkdirs(run_dir);
	if (err)
		return err;
	fd = sock_listen_unix(c->sock, 0600);
	if (fd < 0)
		return fd;
	c->srv = sockserv_new(fd, "\n", 256, 2000, fn);
	if (!c->srv) {
		close(fd);
		unlink(c->sock);
		return -ENOMEM;
	}
	return write_pidfile(c->pidfile);
}

struct control *control_new(const char *run_dir, sockserv_fn fn)
{
	struct control *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	err = control_open(c, run_dir, fn);
	if (err) {
		log_warn("no control socket in '%s': %s; 'ember snapshot' and 'ember status' "
			 "will not reach this emberd, ignoring",
			 run_dir,
			 err == -EADDRINUSE ? "another emberd answers there" : strerror(-err));
		control_free(c);
		return NULL;
	}
	return c;
}

void control_free(struct control *c)
{
	if (!c)
		return;
	if (c->srv) {
		sockserv_free(c->srv);
		unlink(c->sock);
		unlink(c->pidfile);
	}
	free(c);
}

struct sockserv *control_server(const struct control *c)
{
	return c->srv;
}
