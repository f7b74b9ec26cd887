/* SPDX-License-Identifier: BSD-2-Clause */
/* textfile.h - a whole input file in memory: mapped if plain, else read (and gunzipped) */
#ifndef EMBER_TEXTFILE_H
#define EMBER_TEXTFILE_H

#include <stddef.h>

struct textfile {
	char *data; /* NULL when empty */
	size_t len;
	int mapped;
};

/* path "-" is stdin. Returns 0 or -errno. */
int textfile_open(struct textfile *t, const char *path);
void textfile_close(struct textfile *t);

#endif
