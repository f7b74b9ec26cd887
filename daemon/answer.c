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

#define FOLDED_MAX_REPLY (16u << 20) /* bytes of folded lines in one answer */

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

/*
 * The current window's profile of a kind, drained first, heaviest stacks first: a header
 * line, then folded lines up to FOLDED_MAX_REPLY bytes (the rest counted in a last comment).
 */
static void do_folded(struct emberd *d, const char *kind, size_t len, struct sbuf *out)
{
	unsigned int both = COLLECT_ONCPU | COLLECT_OFFCPU;
	const struct folded_entry *v;
	struct folded *f;
	char w[32];
	size_t n, i;
	int k;

	for (k = 0; k < KIND_MAX; k++)
		if (strlen(profile_kind_names[k]) == len &&
		    !strncmp(kind, profile_kind_names[k], len))
			break;
	if (k == KIND_MAX) {
		sbuf_addf(out, "error: unknown kind '%.*s'\n", (int)len, kind);
		return;
	}
	emberd_drain(d);
	if (k == KIND_HOTCOLD && (d->cfg.collect & both) == both &&
	    window_hotcold(d->win, d->cfg.freq))
		log_warn("cannot build the hot/cold profile, ignoring");
	f = d->win->profiles[k];
	n = folded_count(f);
	v = folded_sorted_by(f, FOLDED_BY_WEIGHT);
	if (!v) {
		sbuf_addstr(out, "error: out of memory\n");
		return;
	}
	sbuf_addf(out, "# ember folded %s drain %u stacks %zu\n", profile_kind_names[k],
		  emberd_drain_period(&d->cfg), n);
	for (i = 0; i < n && out->len < FOLDED_MAX_REPLY; i++) {
		folded_format_weight(w, sizeof(w), v[i].weight, v[i].frac);
		if (sbuf_add(out, v[i].stack, v[i].len) || sbuf_addf(out, " %s\n", w))
			break;
	}
	if (i < n)
		sbuf_addf(out, "# truncated: %zu stacks left out\n", n - i);
}

/* One command a connection, a line: "snapshot", "status" or "folded KIND". */
void answer_control(void *arg, const char *req, size_t len, struct sbuf *out)
{
	struct emberd *d = arg;

	len = strcspn(req, "\r\n");
	if (len == 8 && !strncmp(req, "snapshot", 8))
		do_snapshot(d, out);
	else if (len == 6 && !strncmp(req, "status", 6))
		report_status(d, out);
	else if (len > 7 && !strncmp(req, "folded ", 7))
		do_folded(d, req + 7, len - 7, out);
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
