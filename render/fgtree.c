/* SPDX-License-Identifier: BSD-2-Clause */
/* fgtree.c - merge sorted stacks into the frames of a flame graph, as flamegraph.pl's flow() */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/fgtree.h"

struct open_frame {
	const char *name;
	uint32_t len;
	int waker;
	double stime, delta;
};

struct flow {
	struct fg_tree *t;
	struct open_frame *open;
	size_t nopen, cap;
	double minwidth_time;
};

int fg_layout_width(const struct fg_opts *o)
{
	return o->width > 0 ? o->width : FG_FLUID_WIDTH;
}

/*
 * Close an open frame at etime into the tree, unless it is narrower than the minimum width (its
 * children, closed before it, were no wider and went too). Returns 0 or -ENOMEM.
 */
static int emit(struct flow *fl, const struct open_frame *of, uint32_t depth, double etime)
{
	struct fg_tree *t = fl->t;
	struct fg_frame *fr;

	if (etime - of->stime < fl->minwidth_time)
		return 0;
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 4096;
		struct fg_frame *nf = realloc(t->frames, ncap * sizeof(*nf));

		if (!nf)
			return -ENOMEM;
		t->frames = nf;
		t->cap = ncap;
	}
	fr = &t->frames[t->n++];
	fr->name = of->name;
	fr->len = of->len;
	fr->depth = depth;
	fr->stime = of->stime;
	fr->etime = etime;
	fr->delta = of->delta;
	fr->waker = of->waker;
	if (depth > t->depthmax)
		t->depthmax = depth;
	return 0;
}

/* Close the open frames from depth keep on, deepest first. */
static int close_to(struct flow *fl, size_t keep, double time)
{
	while (fl->nopen > keep) {
		fl->nopen--;
		if (emit(fl, &fl->open[fl->nopen], (uint32_t)fl->nopen, time))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Open a frame at time on top of the open ones. The name is not copied: frames point into the
 * caller's rows. Every frame above a "--" separator is the waker's and is marked so, for its
 * colour. Returns 0 or -ENOMEM.
 */
static int push(struct flow *fl, const char *name, size_t len, double time)
{
	struct open_frame *of;

	if (fl->nopen == fl->cap) {
		size_t ncap = fl->cap ? fl->cap * 2 : 64;
		struct open_frame *no = realloc(fl->open, ncap * sizeof(*no));

		if (!no)
			return -ENOMEM;
		fl->open = no;
		fl->cap = ncap;
	}
	of = &fl->open[fl->nopen];
	of->name = name;
	of->len = (uint32_t)len;
	of->stime = time;
	of->delta = 0;
	of->waker = 0;
	if (fl->nopen) {
		const struct open_frame *parent = of - 1;

		of->waker = parent->waker || (parent->len == 2 && !memcmp(parent->name, "--", 2));
	}
	fl->nopen++;
	return 0;
}

/* Merge one stack: keep the frames it shares with the open ones, close the rest, open its own. */
static int flow_row(struct flow *fl, const char *s, size_t len, double time, double delta)
{
	size_t depth = 1, pos = 0;
	int opened = 0;

	while (len && s[len - 1] == ';') /* as Perl's split, which drops trailing empty fields */
		len--;
	while (len && pos <= len) {
		const char *semi = memchr(s + pos, ';', len - pos);
		size_t flen = semi ? (size_t)(semi - (s + pos)) : len - pos;

		if (!opened && depth < fl->nopen && fl->open[depth].len == flen &&
		    !memcmp(fl->open[depth].name, s + pos, flen)) {
			depth++;
		} else {
			if (!opened && close_to(fl, depth, time))
				return -ENOMEM;
			opened = 1;
			if (push(fl, s + pos, flen, time))
				return -ENOMEM;
			depth++;
		}
		pos += flen + 1;
	}
	if (!opened && close_to(fl, depth, time))
		return -ENOMEM;
	fl->open[fl->nopen - 1].delta += delta;
	return 0;
}

static void totals(struct fg_tree *t, const struct fg_row *rows, size_t n, int differential,
		   const struct fg_opts *o)
{
	t->time = 0;
	t->maxdelta = 1;
	for (size_t i = 0; i < n; i++) {
		t->time += rows[i].value;
		if (differential && fabs(rows[i].value - rows[i].before) > t->maxdelta)
			t->maxdelta = fabs(rows[i].value - rows[i].before);
	}
	t->timemax = t->time;
	if (o->total > 0 && o->total >= t->time)
		t->timemax = o->total;
	t->total_ignored = o->total > 0 && o->total < t->time;
}

int fg_tree_build(struct fg_tree *t, const struct fg_row *rows, size_t n, int differential,
		  const struct fg_opts *o)
{
	struct flow fl = { .t = t };
	double time = 0, wpt;
	int err = 0;

	memset(t, 0, sizeof(*t));
	totals(t, rows, n, differential, o);
	wpt = (fg_layout_width(o) - 2 * FG_XPAD) / (t->timemax > 0 ? t->timemax : 1);
	fl.minwidth_time = o->minwidth_pct ? t->timemax * o->minwidth / 100 : o->minwidth / wpt;
	err = push(&fl, "", 0, 0);
	for (size_t i = 0; i < n && !err; i++) {
		err = flow_row(&fl, rows[i].stack, rows[i].len, time,
			       differential ? rows[i].value - rows[i].before : 0);
		time += rows[i].value;
	}
	if (!err)
		err = close_to(&fl, 0, time);
	free(fl.open);
	return err;
}

void fg_tree_release(struct fg_tree *t)
{
	free(t->frames);
	memset(t, 0, sizeof(*t));
}
