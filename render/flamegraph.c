/* SPDX-License-Identifier: BSD-2-Clause */
/* flamegraph.c - draw folded stacks as a flame graph: order the rows, merge, write the SVG */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/fgsvg.h"
#include "render/fgtree.h"
#include "render/flamegraph.h"

void fg_opts_init(struct fg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 0;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->fonttype = "Verdana";
	o->minwidth = 0.1;
	o->countname = "samples";
	o->nametype = "Function:";
	o->palette = PAL_HOT;
	o->color_mode = COLOR_BY_NAME;
	o->search_color = "rgb(230,0,230)";
	o->factor = 1;
}

int fg_opts_for_kind(struct fg_opts *o, const char *kind)
{
	static const struct {
		const char *kind, *countname;
		enum palette palette;
	} kinds[] = {
		{ "oncpu", "samples", PAL_HOT },
		{ "offcpu", "us", PAL_IO },
		{ "alloc", "bytes", PAL_MEM },
		{ "live", "bytes", PAL_MEM },
		{ "heap", "bytes", PAL_MEM },
		{ "hotcold", "us", PAL_HOT }, /* off-CPU frames (_[o]) draw blue */
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!strcmp(kind, kinds[i].kind)) {
			o->countname = kinds[i].countname;
			o->palette = kinds[i].palette;
			return 0;
		}
	}
	return -EINVAL;
}

static int by_stack(const void *a, const void *b)
{
	const struct fg_row *x = a, *y = b;
	int c = memcmp(x->stack, y->stack, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Merge order, alphabetical; folded files usually come sorted already, so look first. */
static void sort_rows(struct fg_row *rows, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_stack(&rows[i - 1], &rows[i]) > 0) {
			qsort(rows, n, sizeof(*rows), by_stack);
			return;
		}
}

/* Reverse the frames of every stack into one buffer; rows then point into it. */
static char *reverse_rows(struct fg_row *rows, size_t n)
{
	size_t total = 1, pos = 0;
	char *buf;

	for (size_t i = 0; i < n; i++)
		total += rows[i].len;
	buf = malloc(total);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *s = rows[i].stack;
		size_t end = rows[i].len, out = pos;

		while (end > 0) {
			size_t start = end;

			while (start > 0 && s[start - 1] != ';')
				start--;
			memcpy(buf + out, s + start, end - start);
			out += end - start;
			if (start > 0)
				buf[out++] = ';';
			end = start ? start - 1 : 0;
		}
		rows[i].stack = buf + pos;
		pos = out;
	}
	return buf;
}

int flamegraph_write_rows(struct fg_row *rows, size_t n, int differential, const struct fg_opts *o,
			  FILE *out, struct fg_stats *st)
{
	struct fg_tree t;
	char *reversed = NULL;
	int err;

	if (o->reverse && !(reversed = reverse_rows(rows, n)))
		return -ENOMEM;
	if (!o->flamechart && n)
		sort_rows(rows, n);
	err = fg_tree_build(&t, rows, n, differential, o);
	if (!err && !(t.time > 0))
		err = fg_svg_write_empty(o, out) ?: -ENODATA;
	else if (!err)
		err = fg_svg_write(&t, differential, o, out);
	if (st) {
		st->time = t.time;
		st->frames = t.n;
		st->total_ignored = t.total_ignored;
	}
	fg_tree_release(&t);
	free(reversed);
	return err;
}

static int rows_from(const struct folded *f, struct fg_row **rows, size_t *n)
{
	const struct folded_entry *e;
	size_t iter = 0, k = 0;

	*rows = malloc((folded_count(f) + 1) * sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	while ((e = folded_next(f, &iter)))
		(*rows)[k++] = (struct fg_row){ e->stack, e->len, (double)e->weight + e->frac, 0 };
	*n = k;
	return 0;
}

int flamegraph_write(const struct folded *f, const struct fg_opts *o, FILE *out)
{
	struct fg_row *rows;
	size_t n;
	int err = rows_from(f, &rows, &n);

	if (err)
		return err;
	err = flamegraph_write_rows(rows, n, 0, o, out, NULL);
	free(rows);
	return err;
}
