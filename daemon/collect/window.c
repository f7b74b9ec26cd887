/* SPDX-License-Identifier: BSD-2-Clause */
/* window.c - what the collectors gathered during one window */
#include <errno.h>
#include <stdlib.h>

#include "lib/sbuf.h"
#include "daemon/collect/window.h"

const char *const profile_kind_names[KIND_MAX] = { "oncpu", "offcpu",  "alloc",
						   "live",  "hotcold", "heap" };

struct window *window_new(time_t start)
{
	struct window *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->start = start;
	for (int k = 0; k < KIND_MAX; k++) {
		w->profiles[k] = folded_new();
		if (!w->profiles[k]) {
			window_free(w);
			return NULL;
		}
	}
	return w;
}

void window_free(struct window *w)
{
	if (!w)
		return;
	for (int k = 0; k < KIND_MAX; k++)
		folded_free(w->profiles[k]);
	free(w);
}

int window_empty(const struct window *w)
{
	for (int k = 0; k < KIND_MAX; k++)
		if (folded_count(w->profiles[k]))
			return 0;
	return 1;
}

/* "a;b" -> "a_[o];b_[o]" */
static int mark_cold(struct sbuf *sb, const struct folded_entry *e)
{
	int err = 0;

	sbuf_setlen(sb, 0);
	for (size_t i = 0; i < e->len && !err; i++) {
		if (e->stack[i] == ';')
			err = sbuf_addstr(sb, HOTCOLD_MARK);
		err = err ?: sbuf_addch(sb, e->stack[i]);
	}
	return err ?: sbuf_addstr(sb, HOTCOLD_MARK);
}

int window_hotcold(struct window *w, unsigned int freq)
{
	struct folded *hc = folded_new();
	struct sbuf sb = SBUF_INIT;
	const struct folded_entry *e;
	size_t it = 0;
	int err = 0;

	if (!hc || !freq) {
		folded_free(hc);
		return hc ? -EINVAL : -ENOMEM;
	}
	while (!err && (e = folded_next(w->profiles[KIND_ONCPU], &it)))
		err = folded_add(hc, e->stack, e->len, (e->weight * 1000000 + freq / 2) / freq);
	it = 0;
	while (!err && (e = folded_next(w->profiles[KIND_OFFCPU], &it))) {
		err = mark_cold(&sb, e);
		err = err ?: folded_add(hc, sb.buf, sb.len, e->weight);
	}
	sbuf_release(&sb);
	if (err) {
		folded_free(hc);
		return err;
	}
	folded_free(w->profiles[KIND_HOTCOLD]);
	w->profiles[KIND_HOTCOLD] = hc;
	return 0;
}
