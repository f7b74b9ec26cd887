/* SPDX-License-Identifier: BSD-2-Clause */
/* stackbuf.h - the frames of one sample as a parser meets them, leaf first, joined root first */
#ifndef EMBER_STACKBUF_H
#define EMBER_STACKBUF_H

#include <stddef.h>

#include "lib/sbuf.h"

struct stackbuf_frame {
	size_t off, len;
};

struct stackbuf {
	struct sbuf text; /* the frames' bytes; a parser appends a frame here, then ends it */
	struct stackbuf_frame *v;
	size_t n, cap;
	struct sbuf joined;
};

#define STACKBUF_INIT                                                                              \
	{                                                                                          \
		SBUF_INIT, NULL, 0, 0, SBUF_INIT                                                   \
	}

void stackbuf_release(struct stackbuf *sb);
void stackbuf_reset(struct stackbuf *sb);
/* The frame is text[start, text.len). Returns 0 or -ENOMEM. */
int stackbuf_end_frame(struct stackbuf *sb, size_t start);
int stackbuf_push(struct stackbuf *sb, const char *frame, size_t len);
/* Reverse the order of the frames from index first on. */
void stackbuf_reverse_from(struct stackbuf *sb, size_t first);
/*
 * "prefix;fN;...;f1": the frames last pushed first, after prefix when plen or prefix is
 * not NULL. The result stays valid until the next call. Returns 0 or -ENOMEM.
 */
int stackbuf_join(struct stackbuf *sb, const char *prefix, size_t plen, const char **out,
		  size_t *len);

#endif
