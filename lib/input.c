/* SPDX-License-Identifier: BSD-2-Clause */
/* input.c - the files named on a command line (or stdin) read as one stream of lines */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/input.h"
#include "lib/zfile.h"

static FILE *next_file(void *ctx)
{
	struct input *in = ctx;

	return in->next < in->nfiles ? in->files[in->next++] : NULL;
}

int input_open(struct input *in, char **paths, int npaths, const char **bad)
{
	int err;

	memset(in, 0, sizeof(*in));
	in->files = calloc(npaths ? (size_t)npaths : 1, sizeof(*in->files));
	if (!in->files)
		return -ENOMEM;
	if (npaths == 0)
		in->files[in->nfiles++] = stdin;
	for (int i = 0; i < npaths; i++) {
		in->files[i] = strcmp(paths[i], "-") ? zfile_open(paths[i]) : stdin;
		if (!in->files[i]) {
			err = -errno;
			*bad = paths[i];
			goto fail;
		}
		in->nfiles++;
	}
	err = lines_init(&in->lines, in->files[0]);
	if (err)
		goto fail;
	in->next = 1;
	in->lines.next_file = next_file;
	in->lines.ctx = in;
	return 0;
fail:
	input_close(in);
	return err;
}

void input_close(struct input *in)
{
	for (int i = 0; i < in->nfiles; i++)
		if (in->files[i] != stdin)
			fclose(in->files[i]);
	free(in->files);
	lines_release(&in->lines);
	memset(in, 0, sizeof(*in));
}
