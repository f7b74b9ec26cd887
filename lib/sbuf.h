/* SPDX-License-Identifier: BSD-2-Clause */
/* sbuf.h - a growable byte buffer for building stacks and lines */
#ifndef EMBER_SBUF_H
#define EMBER_SBUF_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

struct sbuf {
	char *buf; /* always NUL-terminated when cap > 0 */
	size_t len, cap;
};

#define SBUF_INIT                                                                                  \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

void sbuf_release(struct sbuf *sb);
/* Each returns 0 or -ENOMEM; on error the buffer is unchanged. */
int sbuf_grow(struct sbuf *sb, size_t extra);
int sbuf_addstr(struct sbuf *sb, const char *s);
int sbuf_addf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_setlen(struct sbuf *sb, size_t len);

/* Inline, as parsers call these for every frame: a call to grow only when the room is short. */
static inline int sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (sb->cap - sb->len <= len && sbuf_grow(sb, len))
		return -ENOMEM;
	if (len) /* data may be NULL then: an empty sbuf's */
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

static inline int sbuf_addch(struct sbuf *sb, char c)
{
	if (sb->cap - sb->len <= 1 && sbuf_grow(sb, 1))
		return -ENOMEM;
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
	return 0;
}

#endif
