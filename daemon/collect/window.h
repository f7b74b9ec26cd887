/* SPDX-License-Identifier: BSD-2-Clause */
/* window.h - what the collectors gathered during one window, one folded profile per kind */
#ifndef EMBER_WINDOW_H
#define EMBER_WINDOW_H

#include <stdint.h>
#include <time.h>

#include "collapse/folded.h"

enum profile_kind {
	KIND_ONCPU,
	KIND_OFFCPU,
	KIND_ALLOC,
	KIND_LIVE,
	KIND_HOTCOLD,
	KIND_HEAP,
	KIND_MAX
};

/* The annotation of every off-CPU frame in a hot/cold profile (drawn blue). */
#define HOTCOLD_MARK "_[o]"

/* The outcomes of a collector's user-stack walks with unwind tables (walked 0: not counted). */
struct unwind_walks {
	uint64_t walked;   /* walks done */
	uint64_t complete; /* reached the outermost frame: the stack is whole */
	uint64_t cut;      /* stopped at MAX_STACK_DEPTH frames */
	uint64_t fp_steps; /* took a frame-pointer step where no table row was */
	uint64_t no_table; /* the process had no tables yet: frame pointers only */
};

struct window_stats {
	uint64_t samples;       /* events counted into the profile */
	uint64_t lost;          /* events dropped (maps full, stacks lost) */
	uint64_t frames, named; /* symbolization share */
	uint64_t lost_stacks;   /* weight whose user or kernel stack was lost: [lost ... stack] */
	struct unwind_walks walks; /* user stacks walked with tables (--unwind dwarf|auto) */
};

struct window {
	time_t start;
	struct folded *profiles[KIND_MAX];
	struct window_stats stats[KIND_MAX];
};

extern const char *const profile_kind_names[KIND_MAX];

/* NULL on -ENOMEM. */
struct window *window_new(time_t start);
void window_free(struct window *w);
int window_empty(const struct window *w);

/*
 * Rebuild w's hot/cold profile from its on-CPU and off-CPU ones, in
 * microseconds: each on-CPU sample counts 1e6 / freq, every off-CPU frame
 * gets HOTCOLD_MARK. Returns 0 or -errno.
 */
int window_hotcold(struct window *w, unsigned int freq);

#endif
