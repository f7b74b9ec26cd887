/* SPDX-License-Identifier: BSD-2-Clause */
/* input.h - the files named on a command line (or stdin) read as one stream of lines */
#ifndef EMBER_INPUT_H
#define EMBER_INPUT_H

#include "lib/lines.h"

struct input {
	FILE **files;
	int nfiles, next;
	struct lines lines;
};

/* Open every path ("-" is stdin; none: stdin). Returns 0, or -errno with *bad the failing path. */
int input_open(struct input *in, char **paths, int npaths, const char **bad);
void input_close(struct input *in);

#endif
