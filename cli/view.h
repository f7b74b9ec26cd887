/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * view.h - the parts of `ember view`: the flame tree as flat arrays (viewtree.c), names made
 * safe for a terminal (viewname.c), the text form (viewtext.c), the screen (viewdraw.c), keys
 * and mouse (viewkeys.c), and the running emberd as a source (viewlive.c).
 */
#ifndef EMBER_VIEW_H
#define EMBER_VIEW_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

#include "collapse/folded.h"
#include "render/palette.h"

#define VIEW_NONE UINT32_MAX

/* One frame of the merged tree: a unique stack prefix. */
struct view_node {
	const char *name; /* into the source's stacks */
	uint32_t len;
	uint32_t parent; /* VIEW_NONE for the root */
	uint32_t end;    /* pre-order: this subtree is [index, end) */
	uint32_t depth;  /* the root "all" is 0 */
	double total, self;
	double before; /* differential: the total of the first column */
};

struct view_tree {
	struct view_node *nodes; /* node 0 is the root; children follow their parent in order */
	uint32_t n, cap;
	uint32_t maxdepth;
	int diff;
	double maxdelta; /* largest |total - before| of a frame, for the colours */
};

/*
 * Merge the stacks of after (and of before, for a differential: frames weigh after's counts
 * and carry before's) into t, in one pass over them sorted frame by frame. t keeps pointers
 * into the profiles' stacks. Returns 0, -ENOMEM or -EOVERFLOW (over 2^32 frames).
 */
int view_tree_build(struct view_tree *t, struct folded *after, struct folded *before);
void view_tree_release(struct view_tree *t);
/* The child of i with the largest total, or VIEW_NONE. */
uint32_t view_tree_heaviest_child(const struct view_tree *t, uint32_t i);

/*
 * The next character of a name for a terminal, from *p (advanced, never past end): valid
 * UTF-8 that prints (when utf8) or printable ASCII as it is; control characters, escape
 * sequences' bytes, invalid or non-printing sequences as U+FFFD (or '?' without utf8).
 * *cols gets its width (0 for a combining character, dropped by the callers).
 */
wchar_t view_name_char(const char **p, const char *end, int utf8, int *cols);
/* A name as safe UTF-8 (or ASCII) text, at most maxcols columns. Returns 0 or -ENOMEM. */
struct sbuf;
int view_name_text(const char *s, size_t len, int utf8, int maxcols, struct sbuf *out);
/* The shown part of a name: without a trailing annotation _[k], _[j], _[i], _[w], _[o]. */
size_t view_name_shown(const char *s, size_t len);

struct view_text_opts {
	double min_pct; /* leave out frames below this percent of the total */
	int top;        /* > 0: the N heaviest functions by self weight instead of the tree */
	int utf8;
};

/* The tree as indented text with percentages, or the top functions. Returns 0 or -errno. */
int view_text(const struct view_tree *t, const char *unit, const struct view_text_opts *o,
	      FILE *out);

/* One profile that can be shown: a folded file, one sample type of a pprof, one live kind. */
struct view_source {
	char label[64];                /* "samples", "cpu", "offcpu"... */
	char unit[32];                 /* "samples", "nanoseconds", "bytes"... */
	struct folded *after, *before; /* before: NULL unless differential */
};

/* A frame on screen. */
struct view_rect {
	uint32_t node;
	int x, w, row;
};

enum view_colors { VIEW_MONO, VIEW_COLORS_8, VIEW_COLORS_256, VIEW_COLORS_DIRECT };

struct view_live {
	const char *run_dir; /* NULL: not live */
	unsigned int drain_sec;
	double next_fetch; /* CLOCK_MONOTONIC seconds */
	char status[96];
};

struct view {
	struct view_source *src;
	int nsrc, cur;
	const char *title;
	struct view_tree tree;
	uint32_t zoom, sel, hover;
	int inverted, scroll, help, negate;
	enum palette palette;
	enum view_colors colors;
	int utf8;
	int cols, rows, top; /* the graph's columns, rows and first screen row */
	int have_re;
	regex_t re;
	char pattern[256];
	unsigned char *match; /* per node: its name matches */
	int32_t *color;       /* per node: its curses colour once drawn, -1 before */
	double matched;       /* total of the matched frames, nested ones counted once */
	struct view_rect *rects;
	size_t nrects, caprects;
	char msg[160];
	struct view_live live;
	FILE *timing;   /* --timing: first screen and redraw times, for the benchmark */
	double started; /* view_now() at the start, for the time to the first screen */
};

/* CLOCK_MONOTONIC in seconds. */
double view_now(void);

/* viewkeys.c: run the screen until the user quits. Returns the exit status. */
int view_run(struct view *v);
/* Rebuild the tree of the current source, keeping the zoom and search when they still fit. */
int view_load_tree(struct view *v);
/* Apply the search pattern to the current tree (none: clear). Returns 0 or -errno. */
int view_search(struct view *v);

/* viewdraw.c */
void view_draw_init(struct view *v);
/* Lay out the frames that are at least one column wide and fit the rows, then draw. */
int view_draw(struct view *v);
/* The frame at a screen cell, or VIEW_NONE. */
uint32_t view_frame_at(const struct view *v, int row, int col);
/* A frame's rectangle on screen, or NULL if it is not drawn. */
const struct view_rect *view_rect_of(const struct view *v, uint32_t node);
/* The screen row of a depth (may be off screen). */
int view_row_of(const struct view *v, uint32_t depth);
/* Scroll so that the selected frame's row is on screen. */
void view_scroll_to_sel(struct view *v);

/* viewlive.c: the running emberd's current window of kind, as a folded profile. */
int view_live_fetch(struct view *v, struct view_source *s);
/* When to fetch next: just after the daemon's next drain (its ticks fall on multiples of the period). */
double view_live_next(const struct view *v);
/* The live kinds in switching order; their units. */
extern const char *const view_live_kinds[];
extern const char *const view_live_units[];
extern const int view_nlive_kinds;

#endif
