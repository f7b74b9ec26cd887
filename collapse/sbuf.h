/* SPDX-License-Identifier: BSD-2-Clause */
/* sbuf.h - a growable byte buffer for building stacks and lines */
#ifndef EMBER_SBUF_H
#define EMBER_SBUF_H

#include <stddef.h>

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
int sbuf_add(struct sbuf *sb, const void *data, size_t len);
int sbuf_addstr(struct sbuf *sb, const char *s);
int sbuf_addch(struct sbuf *sb, char c);
int sbuf_addf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_setlen(struct sbuf *sb, size_t len);

#endif
