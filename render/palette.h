/* SPDX-License-Identifier: BSD-2-Clause */
/* palette.h - frame colours: flamegraph.pl's palettes, name hashing, differential scale */
#ifndef EMBER_PALETTE_H
#define EMBER_PALETTE_H

#include <stddef.h>

enum palette {
	PAL_HOT,
	PAL_MEM,
	PAL_IO,
	PAL_WAKEUP,
	PAL_CHAIN,
	PAL_JAVA,
	PAL_JS,
	PAL_PERL,
	PAL_PYTHON,
	PAL_RUST,
	PAL_RED,
	PAL_GREEN,
	PAL_BLUE,
	PAL_AQUA,
	PAL_YELLOW,
	PAL_PURPLE,
	PAL_ORANGE,
	PAL_MAX,
};

/* How a frame's shade is picked within its palette. */
enum color_mode {
	COLOR_BY_NAME,   /* flamegraph.pl's default: a shade seeded by the name's character sum */
	COLOR_BY_HASH,   /* --hash: a gradient keyed on the first characters of the name */
	COLOR_BY_RANDOM, /* --random: any shade */
};

struct rgb {
	unsigned char r, g, b;
};

/* The palette called name, or -1. */
int palette_parse(const char *name);

/*
 * The colour of a frame called name (len bytes, annotation included). waker: the frame sits
 * after a "--" separator (chain graphs). Frames annotated _[o] are off-CPU: a cold blue shade
 * in every palette.
 */
struct rgb palette_color(enum palette p, enum color_mode mode, const char *name, size_t len,
			 int waker);

/* A differential frame: red for growth, blue for shrinkage, paler the smaller |delta|. */
struct rgb palette_diff(double delta, double maxdelta, int negate);

/*
 * The background gradient: spec "yellow", "blue", "green", "grey" or "#rrggbb"; NULL picks the
 * palette's own. Writes "#rrggbb" strings. Returns 0 or -EINVAL.
 */
int palette_background(const char *spec, enum palette p, char c1[8], char c2[8]);

/* Whether s is a colour safe to put in an attribute: "#rgb", "#rrggbb", "rgb(r,g,b)" or a word. */
int palette_valid_color(const char *s);

#endif
