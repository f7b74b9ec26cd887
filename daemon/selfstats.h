/* SPDX-License-Identifier: BSD-2-Clause */
/* selfstats.h - what emberd knows about itself: counters for status, metrics and logs */
#ifndef EMBER_SELFSTATS_H
#define EMBER_SELFSTATS_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "daemon/collect/window.h"

struct selfstats {
	time_t started;
	uint64_t samples[KIND_MAX], lost[KIND_MAX]; /* written or dropped windows, since start */
	uint64_t lost_stacks[KIND_MAX];             /* weight on [lost ... stack] frames */
	uint64_t walks[KIND_MAX],
		whole[KIND_MAX];       /* user stacks walked with tables, and complete */
	time_t walks_warned[KIND_MAX]; /* last warning of incomplete stacks */
	uint64_t windows_written, windows_dropped, snapshots;
	uint64_t sym_frames, sym_named;   /* the symbolizer's counters when the window began */
	uint64_t last_frames, last_named; /* symbolization of the last window written */
	uint64_t last_samples;            /* on-CPU samples of the last window */
	unsigned int last_len;            /* its length, seconds */
	double last_write_sec;            /* time to write the last window */
	double last_retention_sec;        /* time the last retention check took */
	char last_path[PATH_MAX + 80];    /* DIR/STEM of the last window or snapshot */
	time_t last_written;
	int write_failing;      /* the last write failed (-errno), 0 otherwise */
	uint64_t archive_bytes; /* disk used by the archive at the last check */
	uint64_t pruned_windows;
	double map_fill; /* the fullest kernel count map of the last window, 0-1 */
};

#endif
