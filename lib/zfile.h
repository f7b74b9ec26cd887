/* SPDX-License-Identifier: BSD-2-Clause */
/* zfile.h - open a file for reading whether it is gzip-compressed or plain */
#ifndef EMBER_ZFILE_H
#define EMBER_ZFILE_H

#include <stdio.h>

/* path "-" is stdin. NULL with errno set. fclose() releases everything. */
FILE *zfile_open(const char *path);

#endif
