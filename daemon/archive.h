/* SPDX-License-Identifier: BSD-2-Clause */
/* archive.h - write a window's profiles and metadata to the output directory, atomically */
#ifndef EMBER_ARCHIVE_H
#define EMBER_ARCHIVE_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "daemon/config/config.h"
#include "daemon/collect/window.h"

/* What the metadata file tells beside the window itself. */
struct archive_info {
	time_t end;
	int snapshot;
	const char *collectors; /* attached collectors, comma-separated */
	uint64_t frames, named; /* frames symbolized during the window, and those named */
};

#define ARCHIVE_STEM_MAX 64

/* Where a window went: DIR/STEM.* */
struct archive_result {
	char dir[PATH_MAX];
	char stem[ARCHIVE_STEM_MAX];
	int files;
	uint64_t bytes;
};

/*
 * Write every non-empty profile of w as DIR/YYYY-MM-DD/HHMM.KIND.folded.gz,
 * its flame graph KIND.svg (unless cfg->no_svg) and KIND.pb.gz (unless
 * cfg->no_pprof), then the window's metadata HHMM.meta.json
 * (HHMMSS for windows shorter than a minute), or for a snapshot under
 * DIR/snapshots/YYYY-MM-DDTHHMMSS. A stem already used gets "-2", "-3"...
 * Each file appears whole or not at all, and a window that cannot be written
 * whole leaves nothing. Returns the number of profiles written, or -errno.
 * res (may be NULL) is filled when profiles were written.
 */
int archive_write(const struct config *cfg, const struct window *w, const struct archive_info *info,
		  struct archive_result *res);

/* Create dir and its parents (mode 0750). Returns 0 or -errno. */
int archive_mkdirs(const char *dir);

#endif
