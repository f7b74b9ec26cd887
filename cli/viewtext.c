/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewtext.c - `ember view` without a terminal: the tree as indented text with percentages
 * (as `go tool pprof -tree`, for folded stacks), or the functions with the most self weight.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/view.h"
#include "lib/sbuf.h"

#define MAX_INDENT 64 /* deeper frames are indented no further, their depth printed */

static void weight_str(char *buf, size_t size, double w)
{
	if (w == (double)(long long)w)
		snprintf(buf, size, "%lld", (long long)w);
	else
		snprintf(buf, size, "%.2f", w);
}

static int print_node(const struct view_tree *t, uint32_t i, int utf8, struct sbuf *sb, FILE *out)
{
	const struct view_node *n = &t->nodes[i];
	double all = t->nodes[0].total;
	char w[32];

	sbuf_setlen(sb, 0);
	if (view_name_text(n->name, view_name_shown(n->name, n->len), utf8, 1 << 20, sb))
		return -ENOMEM;
	weight_str(w, sizeof(w), n->total);
	fprintf(out, "%7.2f%% %12s  ", all > 0 ? 100 * n->total / all : 0, w);
	if (n->depth > MAX_INDENT)
		fprintf(out, "%*s[%u] ", 2 * MAX_INDENT, "", n->depth);
	else
		fprintf(out, "%*s", 2 * (int)n->depth, "");
	if (t->diff)
		fprintf(out, "(%+.0f) ", n->total - n->before);
	fprintf(out, "%s\n", sb->buf ? sb->buf : "");
	return 0;
}

static int print_tree(const struct view_tree *t, const struct view_text_opts *o, FILE *out)
{
	double limit = t->nodes[0].total * o->min_pct / 100;
	struct sbuf sb = SBUF_INIT;
	int err = 0;

	for (uint32_t i = 0; i < t->n && !err;) {
		if (i && (t->nodes[i].total < limit || t->nodes[i].total <= 0)) {
			i = t->nodes[i].end;
			continue;
		}
		err = print_node(t, i, o->utf8, &sb, out);
		i++;
	}
	sbuf_release(&sb);
	return err;
}

struct fn_self {
	const char *name;
	size_t len;
	double self;
};

static int by_name(const void *pa, const void *pb)
{
	const struct fn_self *a = pa, *b = pb;
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int by_self(const void *pa, const void *pb)
{
	const struct fn_self *a = pa, *b = pb;

	return (a->self < b->self) - (a->self > b->self);
}

/* Self weights summed by name, heaviest first; returns how many, or 0 with *out NULL on ENOMEM. */
static size_t sum_by_name(const struct view_tree *t, struct fn_self **out)
{
	struct fn_self *v = malloc((t->n ? t->n : 1) * sizeof(*v));
	size_t n = 0, k = 0;

	*out = v;
	if (!v)
		return 0;
	for (uint32_t i = 1; i < t->n; i++)
		if (t->nodes[i].self > 0)
			v[n++] = (struct fn_self){ t->nodes[i].name, t->nodes[i].len,
						   t->nodes[i].self };
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		if (k && !by_name(&v[k - 1], &v[i]))
			v[k - 1].self += v[i].self;
		else
			v[k++] = v[i];
	}
	qsort(v, k, sizeof(*v), by_self);
	return k;
}

static int print_top(const struct view_tree *t, const struct view_text_opts *o, FILE *out)
{
	double all = t->nodes[0].total;
	struct sbuf sb = SBUF_INIT;
	struct fn_self *v;
	size_t n = sum_by_name(t, &v);
	char w[32];

	if (!v)
		return -ENOMEM;
	fprintf(out, "%8s %12s  %s\n", "self%", "self", "function");
	for (size_t i = 0; i < n && i < (size_t)o->top; i++) {
		sbuf_setlen(&sb, 0);
		if (view_name_text(v[i].name, view_name_shown(v[i].name, v[i].len), o->utf8,
				   1 << 20, &sb))
			break;
		weight_str(w, sizeof(w), v[i].self);
		fprintf(out, "%7.2f%% %12s  %s\n", all > 0 ? 100 * v[i].self / all : 0, w,
			sb.buf ? sb.buf : "");
	}
	sbuf_release(&sb);
	free(v);
	return 0;
}

int view_text(const struct view_tree *t, const char *unit, const struct view_text_opts *o,
	      FILE *out)
{
	char w[32];
	int err;

	weight_str(w, sizeof(w), t->nodes[0].total);
	fprintf(out, "Total: %s %s\n", w, unit);
	err = o->top > 0 ? print_top(t, o, out) : print_tree(t, o, out);
	if (!err && (fflush(out) || ferror(out)))
		err = -EIO;
	return err;
}
