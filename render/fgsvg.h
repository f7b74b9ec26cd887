/* SPDX-License-Identifier: BSD-2-Clause */
/* fgsvg.h - write a flame graph's frames as an interactive SVG (internal to render/) */
#ifndef EMBER_FGSVG_H
#define EMBER_FGSVG_H

#include <stdio.h>

#include "render/fgtree.h"

/* Returns 0, -ENOMEM or -EIO. */
int fg_svg_write(const struct fg_tree *t, int differential, const struct fg_opts *o, FILE *out);

/* The SVG for a profile with nothing in it. Returns 0 or -EIO. */
int fg_svg_write_empty(const struct fg_opts *o, FILE *out);

/* The interactive part, render/flamegraph.js, built in. */
extern const char fg_script[];

#endif
