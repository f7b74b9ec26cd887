/* SPDX-License-Identifier: BSD-2-Clause */
/* diff.c - two folded profiles side by side, as difffolded.pl: "stack before after" */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/sbuf.h"
#include "render/diff.h"

#define FLUSH_AT (256 * 1024)

struct side {
	struct folded_entry *v; /* sorted by stack */
	size_t n;
};

static int by_stack(const void *a, const void *b)
{
	const struct folded_entry *x = a, *y = b;
	int c = memcmp(x->stack, y->stack, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int sorted(const struct folded *f, struct side *s)
{
	const struct folded_entry *e;
	size_t iter = 0;

	s->n = 0;
	s->v = malloc((folded_count(f) + 1) * sizeof(*s->v));
	if (!s->v)
		return -ENOMEM;
	while ((e = folded_next(f, &iter)))
		s->v[s->n++] = *e;
	qsort(s->v, s->n, sizeof(*s->v), by_stack);
	return 0;
}

static int put_count(struct sbuf *sb, const struct folded_entry *e, double scale)
{
	char num[48];

	if (!e)
		return sbuf_add(sb, " 0", 2);
	if (scale != 1) /* difffolded.pl: int(count * total2 / total1) */
		snprintf(num, sizeof(num), " %.15g", trunc(((double)e->weight + e->frac) * scale));
	else
		num[0] = ' ', folded_format_weight(num + 1, sizeof(num) - 1, e->weight, e->frac);
	return sbuf_addstr(sb, num);
}

static int line(struct sbuf *sb, const struct folded_entry *a, const struct folded_entry *b,
		double scale)
{
	const struct folded_entry *e = a ? a : b;

	if (sbuf_add(sb, e->stack, e->len) || put_count(sb, a, scale) || put_count(sb, b, 1) ||
	    sbuf_addch(sb, '\n'))
		return -ENOMEM;
	return 0;
}

static int flush(struct sbuf *sb, FILE *out)
{
	int err = fwrite(sb->buf, 1, sb->len, out) == sb->len ? 0 : -EIO;

	sbuf_setlen(sb, 0);
	return err;
}

int diff_write(const struct folded *before, const struct folded *after, const struct diff_opts *o,
	       FILE *out)
{
	double t1 = folded_total_value(before), t2 = folded_total_value(after);
	double scale = o->normalize && t1 != t2 && t1 > 0 ? t2 / t1 : 1;
	struct side a, b = { NULL, 0 };
	struct sbuf sb = SBUF_INIT;
	size_t i = 0, j = 0;
	int err = sorted(before, &a) ?: sorted(after, &b);

	while (!err && (i < a.n || j < b.n)) {
		int c = i == a.n ? 1 : j == b.n ? -1 : by_stack(&a.v[i], &b.v[j]);

		err = line(&sb, c <= 0 ? &a.v[i] : NULL, c >= 0 ? &b.v[j] : NULL, scale);
		i += c <= 0;
		j += c >= 0;
		if (!err && sb.len >= FLUSH_AT)
			err = flush(&sb, out);
	}
	if (!err && sb.len)
		err = flush(&sb, out);
	sbuf_release(&sb);
	free(a.v);
	free(b.v);
	return err;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int diff_strip_hex(struct folded *dst, const struct folded *src)
{
	struct sbuf sb = SBUF_INIT;
	const struct folded_entry *e;
	size_t iter = 0;
	int err = 0;

	while (!err && (e = folded_next(src, &iter))) {
		struct folded_entry ne = *e;

		sbuf_setlen(&sb, 0);
		for (size_t k = 0; k < e->len && !err; k++) {
			if (e->stack[k] == '0' && k + 2 < e->len + 0 && e->stack[k + 1] == 'x' &&
			    is_hex(e->stack[k + 2])) {
				err = sbuf_add(&sb, "0x...", 5);
				for (k += 2; k + 1 < e->len && is_hex(e->stack[k + 1]); k++)
					;
			} else {
				err = sbuf_addch(&sb, e->stack[k]);
			}
		}
		ne.stack = sb.buf ? sb.buf : "";
		ne.len = sb.len;
		if (!err)
			err = folded_add_entry(dst, &ne);
	}
	sbuf_release(&sb);
	return err;
}
