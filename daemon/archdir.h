/* SPDX-License-Identifier: BSD-2-Clause */
/* archdir.h - the archive as files: list, measure, prune, clean up after a crash */
#ifndef EMBER_ARCHDIR_H
#define EMBER_ARCHDIR_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* One archived file: OUTPUT/SUB/STEM.REST (SUB is YYYY-MM-DD or "snapshots"). */
struct archdir_entry {
	char *path;
	const char *sub, *name; /* into path */
	size_t sub_len, stem_len;
	time_t mtime;
	uint64_t size;
};

/* The archive's files, grouped by window (same SUB and STEM are adjacent). */
struct archdir {
	struct archdir_entry *e;
	size_t n, cap;
	uint64_t bytes;
};

/* List every archived file under outdir. Returns 0 or -errno (a missing outdir is empty). */
int archdir_scan(const char *outdir, struct archdir *ad);
void archdir_release(struct archdir *ad);

/* Is entry i the first of its window? */
int archdir_window_first(const struct archdir *ad, size_t i);

/* The local start time of a window from its SUB and STEM. Returns 0 or -EINVAL (a snapshot). */
int archdir_window_start(const struct archdir_entry *e, time_t *start);

struct archdir_prune_stats {
	uint64_t windows, files, bytes; /* deleted */
	uint64_t kept_bytes;
};

/*
 * Delete whole windows, oldest first, while older than max_age seconds (0: no
 * limit) or while the archive is above max_bytes (0: no limit). Returns 0 or
 * -errno (the first file that could not be deleted; the rest go on).
 */
int archdir_prune(const char *outdir, time_t now, uint64_t max_age, uint64_t max_bytes,
		  struct archdir_prune_stats *st);

/* Remove the temporaries of writes a crash interrupted. Returns the number removed or -errno. */
int archdir_clean_temps(const char *outdir);

#endif
