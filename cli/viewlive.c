/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewlive.c - `ember view --live`: the running emberd's current window, asked for on the
 * control socket ("folded KIND"): a header line with the drain period, then folded lines.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli/view.h"
#include "daemon/control.h"
#include "lib/sbuf.h"
#include "lib/sock.h"

#define LIVE_TIMEOUT_SEC 10
#define LIVE_MAX_REPLY (64u << 20) /* the daemon caps its answer well below this */

const char *const view_live_kinds[] = { "oncpu", "offcpu", "hotcold", "alloc", "live" };
const char *const view_live_units[] = { "samples", "us", "us", "bytes", "bytes" };
const int view_nlive_kinds = sizeof(view_live_kinds) / sizeof(view_live_kinds[0]);

static int ask(const char *run_dir, const char *kind, struct sbuf *reply)
{
	struct timeval tv = { LIVE_TIMEOUT_SEC, 0 };
	char sock[PATH_MAX], req[64];
	int fd, err;

	snprintf(sock, sizeof(sock), "%s/" CONTROL_SOCKET, run_dir);
	snprintf(req, sizeof(req), "folded %s\n", kind);
	fd = sock_connect_unix(sock);
	if (fd < 0)
		return fd;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	err = sock_write_all(fd, req, strlen(req));
	err = err ?: sock_read(fd, reply, LIVE_MAX_REPLY, NULL);
	close(fd);
	return err;
}

/* "# ember folded KIND drain SEC stacks N" */
static int parse_header(struct view *v, const char *buf)
{
	unsigned int drain;
	char kind[32];

	if (sscanf(buf, "# ember folded %31s drain %u", kind, &drain) != 2 || !drain)
		return -EPROTO;
	v->live.drain_sec = drain;
	return 0;
}

static int parse_stacks(struct folded *f, const char *p, const char *end)
{
	struct folded_line fl;
	int err = 0;

	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n && p[0] != '#' && !folded_parse_line(p, n, &fl))
			err = folded_add(f, fl.stack, fl.stack_len, (uint64_t)fl.counts[0]);
		p += n + 1;
	}
	return err;
}

static void say(struct view *v, const char *what, const char *detail)
{
	char when[16] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(v->live.status, sizeof(v->live.status), "%s %s%s%.60s", when, what,
		 detail ? ": " : "", detail ? detail : "");
}

int view_live_fetch(struct view *v, struct view_source *s)
{
	struct sbuf reply = SBUF_INIT;
	struct folded *f = NULL;
	const char *body;
	int err = ask(v->live.run_dir, s->label, &reply);

	if (err) {
		say(v, "no answer from emberd", strerror(-err));
		goto cleanup;
	}
	if (!reply.len || !strncmp(reply.buf, "error: ", 7)) {
		err = -EPROTO;
		say(v, "emberd", reply.len ? reply.buf + 7 : "closed the connection");
		goto cleanup;
	}
	body = memchr(reply.buf, '\n', reply.len);
	err = body ? parse_header(v, reply.buf) : -EPROTO;
	f = err ? NULL : folded_new();
	err = err ?: f ? parse_stacks(f, body + 1, reply.buf + reply.len) : -ENOMEM;
	if (err) {
		say(v, "unreadable answer from emberd", strerror(-err));
		goto cleanup;
	}
	folded_free(s->after);
	s->after = f;
	f = NULL;
	say(v, "updated", NULL);
cleanup:
	if (v->live.status[0] && strchr(v->live.status, '\n'))
		*strchr(v->live.status, '\n') = '\0';
	folded_free(f);
	sbuf_release(&reply);
	return err;
}

double view_live_next(const struct view *v)
{
	unsigned int p = v->live.drain_sec ? v->live.drain_sec : 1;
	struct timespec ts;
	double now, next;

	clock_gettime(CLOCK_REALTIME, &ts);
	now = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	next = ((double)(ts.tv_sec / p) + 1) * p + 0.25; /* just after the daemon's tick */
	return view_now() + (next - now);
}
