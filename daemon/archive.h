/* SPDX-License-Identifier: BSD-2-Clause */
/* archive.h - write a window's profiles and metadata to the output directory, atomically */
#ifndef EMBER_ARCHIVE_H
#define EMBER_ARCHIVE_H

#include <time.h>

#include "daemon/config.h"
#include "daemon/window.h"

/*
 * Write every non-empty profile of w, and the window's metadata, as
 * DIR/YYYY-MM-DD/HHMM.KIND.folded.gz and HHMM.meta.json (HHMMSS for windows
 * shorter than a minute), or for a snapshot as
 * DIR/snapshots/YYYY-MM-DDTHHMMSS.KIND.folded.gz, each with its flame graph
 * beside it (KIND.svg). Each file appears whole or not at all. Returns the
 * number of profiles written, or -errno.
 */
int archive_write(const struct config *cfg, const struct window *w, time_t end, int snapshot);

/* Create dir and its parents (mode 0750). Returns 0 or -errno. */
int archive_mkdirs(const char *dir);

#endif
