/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_input.h - what the collapse fuzzers share: the input as a line reader, a folded check */
#ifndef EMBER_FUZZ_INPUT_H
#define EMBER_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "collapse/folded.h"
#include "lib/lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stream over data; fmemopen() refuses size 0, so an empty input reads /dev/null. */
static inline FILE *fuzz_open(const uint8_t *data, size_t size)
{
	if (!size)
		return fopen("/dev/null", "r");
	return fmemopen((void *)data, size, "r");
}

/*
 * Every folded profile a parser makes must write out and read back whole: no line skipped as
 * malformed (a newline in a stack, a bad weight) and the same total. Stacks may merge on the
 * way back: one whose last frame ends in " 12" reads as a differential line, as in flamegraph.pl.
 */
static inline void fuzz_check_folded(struct folded *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct folded *back = folded_new();
	struct folded_read_stats st;
	FILE *in;

	if (!out || !back)
		abort();
	if (folded_write(f, out))
		abort();
	fclose(out);
	in = fuzz_open((const uint8_t *)buf, len);
	if (!in || folded_read(back, in, &st))
		abort();
	fclose(in);
	if (st.ignored || folded_count(back) > folded_count(f) ||
	    folded_total(back) != folded_total(f))
		abort();
	folded_free(back);
	free(buf);
}

#endif
