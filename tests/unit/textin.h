/* SPDX-License-Identifier: BSD-2-Clause */
/* textin.h - unit-test helpers for the collapse parsers: a string as a line reader, a profile as text */
#ifndef EMBER_TEXTIN_H
#define EMBER_TEXTIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/lines.h"

/* A stream over len bytes of s (fmemopen refuses 0 bytes: /dev/null stands in). */
static inline FILE *textin_open(const char *s, size_t len)
{
	return len ? fmemopen((void *)s, len, "r") : fopen("/dev/null", "r");
}

/* lr reads text; close the returned stream after lines_release(). NULL on failure. */
static inline FILE *textin_lines(struct lines *lr, const char *text, size_t len)
{
	FILE *in = textin_open(text, len);

	if (in && lines_init(lr, in)) {
		fclose(in);
		return NULL;
	}
	return in;
}

/* The profile as folded_write() prints it, malloc'ed ("" when empty). */
static inline char *textin_folded(struct folded *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return NULL;
	if (folded_write(f, out)) {
		fclose(out);
		free(buf);
		return NULL;
	}
	fclose(out);
	return buf;
}

#endif
