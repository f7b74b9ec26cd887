/* SPDX-License-Identifier: BSD-2-Clause */
/* control.c - emberd's control socket (snapshot, status) and pid file */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/archive.h"
#include "daemon/control.h"
#include "daemon/emberd.h"
#include "daemon/log.h"
#include "daemon/report.h"
#include "daemon/sock.h"
#include "daemon/sockserv.h"

struct control {
	struct sockserv *srv;
	char sock[PATH_MAX], pidfile[PATH_MAX];
};

static int write_pidfile(const char *path)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	if (fprintf(f, "%d\n", (int)getpid()) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static void control_request(void *arg, const char *req, size_t len, struct sbuf *out);

static int control_open(struct control *c, const char *run_dir)
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
	c->srv = sockserv_new(fd, "\n", 256, 2000, control_request);
	if (!c->srv) {
		close(fd);
		unlink(c->sock);
		return -ENOMEM;
	}
	return write_pidfile(c->pidfile);
}

struct control *control_new(const char *run_dir)
{
	struct control *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	err = control_open(c, run_dir);
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

/* Every file of the snapshot, one path a line, in a fixed order. */
static void list_files(const struct archive_result *r, struct sbuf *out)
{
	static const char *const exts[] = { "folded.gz", "pb.gz", "svg" };
	char path[PATH_MAX * 2];

	for (int k = 0; k < KIND_MAX; k++) {
		for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s.%s.%s", r->dir, r->stem,
				 profile_kind_names[k], exts[i]);
			if (!access(path, F_OK))
				sbuf_addf(out, "%s\n", path);
		}
	}
	sbuf_addf(out, "%s/%s.meta.json\n", r->dir, r->stem);
}

static void do_snapshot(struct emberd *d, struct sbuf *out)
{
	struct archive_result r = { .files = 0 };
	int err;

	log_info("control: writing a snapshot");
	err = emberd_snapshot(d, &r);
	if (err)
		sbuf_addf(out, "error: cannot write the snapshot to '%s': %s\n", d->cfg.output_dir,
			  strerror(-err));
	else if (!r.files)
		sbuf_addstr(out, "error: nothing collected since the last window\n");
	else
		list_files(&r, out);
}

/* One command a connection: "snapshot" or "status", a line. */
static void control_request(void *arg, const char *req, size_t len, struct sbuf *out)
{
	struct emberd *d = arg;

	len = strcspn(req, "\r\n");
	if (len == 8 && !strncmp(req, "snapshot", 8))
		do_snapshot(d, out);
	else if (len == 6 && !strncmp(req, "status", 6))
		report_status(d, out);
	else
		sbuf_addf(out, "error: unknown command '%.*s'\n", (int)len, req);
}
