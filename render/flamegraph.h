/* SPDX-License-Identifier: BSD-2-Clause */
/* flamegraph.h - interactive SVG flame graphs, icicle graphs, flame charts and differentials */
#ifndef EMBER_FLAMEGRAPH_H
#define EMBER_FLAMEGRAPH_H

#include <stddef.h>
#include <stdio.h>

#include "collapse/folded.h"
#include "render/namemap.h"
#include "render/palette.h"

/* The options of flamegraph.pl, with its defaults (fg_opts_init) and its meaning. */
struct fg_opts {
	const char *title;     /* NULL: "Flame Graph", "Icicle Graph" or "Flame Chart" */
	const char *subtitle;  /* NULL: none */
	const char *notes;     /* a comment in the SVG */
	int width;             /* pixels; 0: fluid, the SVG fills its window */
	int frameheight;       /* 16 */
	double fontsize;       /* 12 */
	double fontwidth;      /* 0.59: average character width / fontsize */
	const char *fonttype;  /* "Verdana" */
	double minwidth;       /* 0.1: narrower frames are left out; pixels or, with */
	int minwidth_pct;      /* this set, percent of the total */
	const char *countname; /* "samples" */
	const char *nametype;  /* "Function:" */
	enum palette palette;
	enum color_mode color_mode;
	const char *bgcolors;     /* NULL: the palette's; yellow blue green grey #rrggbb */
	const char *search_color; /* "rgb(230,0,230)" */
	int inverted;             /* icicle graph */
	int flamechart;           /* keep input order (a time axis), do not sort */
	int reverse;              /* merge stacks leaf first */
	int negate;               /* swap differential hues */
	double total;             /* > 0: the width stands for this total, if not below the sum */
	double factor;            /* counts shown multiplied by this (1) */
	const char *encoding;     /* NULL: none in the XML declaration */
	const struct namemap *nameattr; /* name -> "attr=value\tattr=value" (NULL: none) */
	struct namemap *palette_map;    /* --cp: name -> colour, read and extended (NULL: none) */
};

/* One input line: a stack with its count, and for differentials the count before. */
struct fg_row {
	const char *stack; /* frames root first, ';'-separated; not NUL-terminated */
	size_t len;
	double value;  /* drawn width */
	double before; /* differential: the first column; the delta is value - before */
};

struct fg_stats {
	double time;       /* sum of the counts */
	size_t frames;     /* frames drawn */
	int total_ignored; /* --total was below the sum */
};

void fg_opts_init(struct fg_opts *o);

/*
 * The options for one kind of ember profile: "oncpu" (samples, hot), "offcpu" (us, io),
 * "alloc", "live" and "heap" (bytes, mem), "hotcold" (us, hot; its _[o] frames blue).
 * Returns 0 or -EINVAL.
 */
int fg_opts_for_kind(struct fg_opts *o, const char *kind);

/*
 * Draw rows as an SVG on out. Unless o->flamechart, rows are sorted in place (o->reverse
 * reverses stacks first). differential: colour by value - before. An empty profile draws an
 * error SVG and returns -ENODATA. Returns 0, -ENODATA, -ENOMEM or -EIO. st may be NULL.
 */
int flamegraph_write_rows(struct fg_row *rows, size_t n, int differential, const struct fg_opts *o,
			  FILE *out, struct fg_stats *st);

/* Draw a folded profile. Returns as flamegraph_write_rows(). */
int flamegraph_write(const struct folded *f, const struct fg_opts *o, FILE *out);

#endif
