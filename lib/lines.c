/* SPDX-License-Identifier: BSD-2-Clause */
/* lines.c - read a stream line by line in large blocks */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lines.h"

#define LINES_BLOCK (1u << 20)

int lines_init(struct lines *lr, FILE *in)
{
	memset(lr, 0, sizeof(*lr));
	lr->in = in;
	lr->cap = LINES_BLOCK;
	lr->buf = malloc(lr->cap);
	return lr->buf ? 0 : -ENOMEM;
}

void lines_release(struct lines *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* Keep the unread tail, make room for at least one block after it, and read. */
static int refill(struct lines *lr)
{
	size_t tail = lr->end - lr->pos, n;

	memmove(lr->buf, lr->buf + lr->pos, tail);
	lr->pos = 0;
	lr->end = tail;
	if (lr->cap - tail < LINES_BLOCK / 2) {
		size_t ncap = lr->cap * 2;
		char *nb = ncap > lr->cap ? realloc(lr->buf, ncap) : NULL;

		if (!nb)
			return -ENOMEM;
		lr->buf = nb;
		lr->cap = ncap;
	}
	n = fread(lr->buf + tail, 1, lr->cap - tail, lr->in);
	lr->end += n;
	if (n == 0) {
		if (ferror(lr->in))
			return -EIO;
		lr->eof = 1;
	}
	return 0;
}

int lines_next(struct lines *lr, const char **line, size_t *len)
{
	size_t scanned = 0;

	for (;;) {
		char *start = lr->buf + lr->pos;
		char *nl = memchr(start + scanned, '\n', lr->end - lr->pos - scanned);
		int err;

		if (nl) {
			*line = start;
			*len = (size_t)(nl - start);
			lr->pos += *len + 1;
			lr->last_unterminated = 0;
			return 1;
		}
		if (lr->eof) {
			if (lr->pos == lr->end && lr->next_file &&
			    (lr->in = lr->next_file(lr->ctx))) {
				lr->eof = 0;
				continue;
			}
			if (lr->pos == lr->end)
				return 0;
			*line = start;
			*len = lr->end - lr->pos;
			lr->pos = lr->end;
			lr->last_unterminated = 1;
			return 1;
		}
		scanned = lr->end - lr->pos;
		err = refill(lr);
		if (err)
			return err;
	}
}

int lines_peek(struct lines *lr, const char **buf, size_t *len)
{
	while (!lr->eof && lr->end - lr->pos < LINES_BLOCK / 2) {
		int err = refill(lr);

		if (err)
			return err;
	}
	*buf = lr->buf + lr->pos;
	*len = lr->end - lr->pos;
	return 0;
}
