/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * answer.c - what emberd answers on its sockets: snapshot and status on the control
 * socket, the exposition on the metrics one. The servers (control.c, metrics.c) only
 * carry bytes; these handlers reach the daemon's state.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/answer.h"
#include "daemon/archive.h"
#include "daemon/emberd.h"
#include "daemon/report.h"
#include "lib/log.h"

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
void answer_control(void *arg, const char *req, size_t len, struct sbuf *out)
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

static void reply(struct sbuf *out, const char *status, const struct sbuf *body)
{
	sbuf_addf(out,
		  "HTTP/1.0 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
		  "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		  status, body->len);
	if (body->len)
		sbuf_add(out, body->buf, body->len);
}

void answer_metrics(void *arg, const char *req, size_t len, struct sbuf *out)
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
