/* SPDX-License-Identifier: BSD-2-Clause */
/* lines.h - read a stream line by line in large blocks, without a copy or an allocation per line */
#ifndef EMBER_LINES_H
#define EMBER_LINES_H

#include <stddef.h>
#include <stdio.h>

struct lines {
	FILE *in;
	char *buf;
	size_t cap, pos, end;
	int eof;
	int last_unterminated; /* the last line returned had no '\n' (truncated input) */
	/* Optional: at the end of in, the next stream to read on (NULL: none), as Perl's <> */
	FILE *(*next_file)(void *ctx);
	void *ctx;
};

/* Returns 0 or -ENOMEM. */
int lines_init(struct lines *lr, FILE *in);
void lines_release(struct lines *lr);

/*
 * Next line without its '\n', valid until the next call. Returns 1 with a line, 0 at the
 * end, -EIO or -ENOMEM. Memory grows with the longest line only.
 */
int lines_next(struct lines *lr, const char **line, size_t *len);

/* The unread input, at least one block of it unless the input is shorter; for guessing. */
int lines_peek(struct lines *lr, const char **buf, size_t *len);

#endif
