/* SPDX-License-Identifier: BSD-2-Clause */
/* window.c - what the collectors gathered during one window */
#include <stdlib.h>

#include "daemon/window.h"

const char *const profile_kind_names[KIND_MAX] = { "oncpu", "offcpu", "alloc", "live", "heap" };

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
