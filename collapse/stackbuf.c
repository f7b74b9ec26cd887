/* SPDX-License-Identifier: BSD-2-Clause */
/* stackbuf.c - the frames of one sample, leaf first, joined root first */
#include <errno.h>
#include <stdlib.h>

#include "collapse/stackbuf.h"

void stackbuf_release(struct stackbuf *sb)
{
	sbuf_release(&sb->text);
	sbuf_release(&sb->joined);
	free(sb->v);
	sb->v = NULL;
	sb->n = sb->cap = 0;
}

void stackbuf_reset(struct stackbuf *sb)
{
	sbuf_setlen(&sb->text, 0);
	sb->n = 0;
}

int stackbuf_end_frame(struct stackbuf *sb, size_t start)
{
	if (sb->n == sb->cap) {
		size_t ncap = sb->cap ? sb->cap * 2 : 64;
		struct stackbuf_frame *nv = realloc(sb->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		sb->v = nv;
		sb->cap = ncap;
	}
	sb->v[sb->n++] = (struct stackbuf_frame){ start, sb->text.len - start };
	return 0;
}

int stackbuf_push(struct stackbuf *sb, const char *frame, size_t len)
{
	size_t start = sb->text.len;

	if (sbuf_add(&sb->text, frame, len))
		return -ENOMEM;
	return stackbuf_end_frame(sb, start);
}

void stackbuf_reverse_from(struct stackbuf *sb, size_t first)
{
	for (size_t i = first, j = sb->n; i + 1 < j; i++, j--) {
		struct stackbuf_frame t = sb->v[i];

		sb->v[i] = sb->v[j - 1];
		sb->v[j - 1] = t;
	}
}

int stackbuf_join(struct stackbuf *sb, const char *prefix, size_t plen, const char **out,
		  size_t *len)
{
	struct sbuf *j = &sb->joined;
	size_t need = plen + 1;

	for (size_t i = 0; i < sb->n; i++)
		need += sb->v[i].len + 1;
	sbuf_setlen(j, 0);
	if (sbuf_grow(j, need))
		return -ENOMEM;
	/* cannot fail: the room is there */
	if (prefix && plen)
		sbuf_add(j, prefix, plen);
	for (size_t i = sb->n; i-- > 0;) {
		if (prefix || i + 1 < sb->n)
			sbuf_addch(j, ';');
		if (sb->v[i].len)
			sbuf_add(j, sb->text.buf + sb->v[i].off, sb->v[i].len);
	}
	*out = j->buf;
	*len = j->len;
	return 0;
}
