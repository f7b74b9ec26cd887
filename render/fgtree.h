/* SPDX-License-Identifier: BSD-2-Clause */
/* fgtree.h - merge sorted stacks into the frames of a flame graph (internal to render/) */
#ifndef EMBER_FGTREE_H
#define EMBER_FGTREE_H

#include <stddef.h>
#include <stdint.h>

#include "render/flamegraph.h"

struct fg_frame {
	const char *name; /* points into the row it came from; "" for the root */
	uint32_t len;
	uint32_t depth; /* 0: the root ("all") */
	double stime, etime;
	double delta; /* differential: change in the frame's own count */
	int waker;    /* after a "--" separator */
};

struct fg_tree {
	struct fg_frame *frames; /* the frames that are wide enough, children before parents */
	size_t n, cap;
	uint32_t depthmax;
	double time;     /* sum of the counts */
	double timemax;  /* what the full width stands for */
	double maxdelta; /* largest |delta| of a line, at least 1 */
	int total_ignored;
};

/*
 * Merge rows (in the order to draw) into frames, leaving out those narrower than o->minwidth
 * at the graph's width (1200 pixels for a fluid graph). Returns 0 or -ENOMEM.
 */
int fg_tree_build(struct fg_tree *t, const struct fg_row *rows, size_t n, int differential,
		  const struct fg_opts *o);
void fg_tree_release(struct fg_tree *t);

/* Width in pixels the frames are laid out on. */
int fg_layout_width(const struct fg_opts *o);

#define FG_XPAD 10
#define FG_FLUID_WIDTH 1200

#endif
