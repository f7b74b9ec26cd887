/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewtree.c - the flame tree of `ember view` as one flat array in pre-order, built in one
 * pass over the stacks sorted frame by frame: a stack shares the open path of the one before
 * it up to the first frame that differs, and adds a node per frame after that. Each node is a
 * unique prefix; its width is the sum of the stacks under it. Stacks are sorted with ';' below
 * every other byte, so "a;b" and "a;b;c" are neighbours even when "a;b1" exists (a bytewise
 * order would put it between them and split "b" in two).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/view.h"

struct vstack {
	const char *stack;
	size_t len;
	double after, before;
};

/* The first index where a and b differ, within n bytes. */
static size_t common_prefix(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

static int frame_order(const void *pa, const void *pb)
{
	const struct vstack *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	size_t i =
		common_prefix((const unsigned char *)a->stack, (const unsigned char *)b->stack, n);
	int ca, cb;

	if (i == n)
		return (a->len > b->len) - (a->len < b->len);
	ca = a->stack[i] == ';' ? 0 : (unsigned char)a->stack[i] + 1;
	cb = b->stack[i] == ';' ? 0 : (unsigned char)b->stack[i] + 1;
	return ca - cb;
}

static double entry_weight(const struct folded_entry *e)
{
	return (double)e->weight + e->frac;
}

/* Both profiles' entries in one array (a stack in both appears twice, merged by the build). */
static struct vstack *gather(struct folded *after, struct folded *before, size_t *n)
{
	size_t na = folded_count(after), nb = before ? folded_count(before) : 0, it = 0, k = 0;
	struct vstack *v = malloc((na + nb ? na + nb : 1) * sizeof(*v));
	const struct folded_entry *e;

	if (!v)
		return NULL;
	while ((e = folded_next(after, &it)))
		v[k++] = (struct vstack){ e->stack, e->len, entry_weight(e), 0 };
	it = 0;
	while (before && (e = folded_next(before, &it)))
		v[k++] = (struct vstack){ e->stack, e->len, 0, entry_weight(e) };
	*n = k;
	return v;
}

static int add_node(struct view_tree *t, const char *name, size_t len, uint32_t parent,
		    uint32_t depth)
{
	if (t->n == UINT32_MAX - 1)
		return -EOVERFLOW;
	if (t->n == t->cap) {
		uint32_t ncap = t->cap > (UINT32_MAX >> 2) ? UINT32_MAX - 1 : t->cap * 2;
		struct view_node *nv = realloc(t->nodes, (size_t)ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->nodes = nv;
		t->cap = ncap;
	}
	t->nodes[t->n++] = (struct view_node){ name, (uint32_t)len, parent, 0, depth, 0, 0, 0 };
	if (depth > t->maxdepth)
		t->maxdepth = depth;
	return 0;
}

/* The open path: the node at each depth of the previous stack. */
struct path {
	uint32_t *node;
	uint32_t n, cap;
};

static int path_push(struct path *p, uint32_t node)
{
	if (p->n == p->cap) {
		uint32_t ncap = p->cap ? p->cap * 2 : 64;
		uint32_t *nv = realloc(p->node, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		p->node = nv;
		p->cap = ncap;
	}
	p->node[p->n++] = node;
	return 0;
}

/* Close the open nodes from depth d on: their subtrees end here. */
static void path_close(struct view_tree *t, struct path *p, uint32_t d)
{
	while (p->n > d)
		t->nodes[p->node[--p->n]].end = t->n;
}

/*
 * One stack (in sorted order) into the tree, sharing the open path's matching frames, closing the
 * rest. Each frame adds after and before, the leaf after as self, the root both. 0 or -errno.
 */
static int add_stack(struct view_tree *t, struct path *p, const struct vstack *s)
{
	const char *q = s->stack, *end = s->stack + s->len;
	uint32_t d = 1;
	int err;

	for (; q <= end; d++) {
		const char *semi = memchr(q, ';', (size_t)(end - q));
		size_t len = (size_t)((semi ? semi : end) - q);

		if (d < p->n) {
			const struct view_node *o = &t->nodes[p->node[d]];

			if (o->len == len && !memcmp(o->name, q, len))
				goto next;
			path_close(t, p, d);
		}
		err = add_node(t, q, len, p->node[d - 1], d);
		err = err ?: path_push(p, t->n - 1);
		if (err)
			return err;
next:
		t->nodes[p->node[d]].total += s->after;
		t->nodes[p->node[d]].before += s->before;
		q += len + 1;
	}
	t->nodes[p->node[d - 1]].self += s->after;
	t->nodes[0].total += s->after;
	t->nodes[0].before += s->before;
	return 0;
}

static void diff_scale(struct view_tree *t)
{
	t->maxdelta = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		double d = fabs(t->nodes[i].total - t->nodes[i].before);

		if (d > t->maxdelta)
			t->maxdelta = d;
	}
}

int view_tree_build(struct view_tree *t, struct folded *after, struct folded *before)
{
	struct path p = { NULL, 0, 0 };
	struct vstack *v;
	size_t n = 0;
	int err;

	memset(t, 0, sizeof(*t));
	v = gather(after, before, &n);
	if (!v)
		return -ENOMEM;
	qsort(v, n, sizeof(*v), frame_order);
	t->cap = 1024;
	t->nodes = malloc(t->cap * sizeof(*t->nodes));
	err = t->nodes ? add_node(t, "all", 3, VIEW_NONE, 0) : -ENOMEM;
	err = err ?: path_push(&p, 0);
	for (size_t i = 0; i < n && !err; i++)
		err = add_stack(t, &p, &v[i]);
	path_close(t, &p, 0);
	free(p.node);
	free(v);
	if (err) {
		view_tree_release(t);
		return err;
	}
	t->diff = before != NULL;
	if (t->diff)
		diff_scale(t);
	return 0;
}

void view_tree_release(struct view_tree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

uint32_t view_tree_heaviest_child(const struct view_tree *t, uint32_t i)
{
	uint32_t best = VIEW_NONE;

	for (uint32_t c = i + 1; c < t->nodes[i].end; c = t->nodes[c].end)
		if (best == VIEW_NONE || t->nodes[c].total > t->nodes[best].total)
			best = c;
	return best;
}
