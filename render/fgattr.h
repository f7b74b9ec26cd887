/* SPDX-License-Identifier: BSD-2-Clause */
/* fgattr.h - a frame's extra attributes from --nameattr, made safe (internal to render/) */
#ifndef EMBER_FGATTR_H
#define EMBER_FGATTR_H

#include "lib/sbuf.h"

struct fg_attr_out {
	const char *tag; /* how to close the element opened: "</a>" or "</g>" */
	char *title;     /* a title that replaces the frame's details, or NULL */
};

/*
 * Open a frame's element for attrs, "name=value" pairs separated by tabs as flamegraph.pl's
 * --nameattr file has them: id, class, title, href (a link, then target, default "_top"),
 * g_extra and a_extra (more name="value" pairs). Event handlers and script URLs are dropped;
 * every value is escaped. Returns 0 or -ENOMEM.
 */
int fg_attr_open(struct sbuf *sb, const char *attrs, struct fg_attr_out *out);
void fg_attr_release(struct fg_attr_out *out);

#endif
