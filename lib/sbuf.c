/* SPDX-License-Identifier: BSD-2-Clause */
/* sbuf.c - a growable byte buffer */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"

void sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	*sb = (struct sbuf)SBUF_INIT;
}

int sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1, ncap;
	char *nb;

	if (extra > SIZE_MAX / 2 - sb->len)
		return -ENOMEM;
	if (need <= sb->cap)
		return 0;
	ncap = sb->cap ? sb->cap : 64;
	while (ncap < need)
		ncap *= 2;
	nb = realloc(sb->buf, ncap);
	if (!nb)
		return -ENOMEM;
	sb->buf = nb;
	sb->cap = ncap;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sbuf_addstr(struct sbuf *sb, const char *s)
{
	return sbuf_add(sb, s, strlen(s));
}

int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if (sbuf_grow(sb, (size_t)n))
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

void sbuf_setlen(struct sbuf *sb, size_t len)
{
	if (len <= sb->len && sb->cap) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}
