/* SPDX-License-Identifier: BSD-2-Clause */
/* perfscript.h - fold `perf script` output exactly as stackcollapse-perf.pl does */
#ifndef EMBER_PERFSCRIPT_H
#define EMBER_PERFSCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include "collapse/folded.h"
#include "lib/lines.h"

struct perfscript_opts {
	bool pid;          /* comm-PID */
	bool tid;          /* comm-PID/TID */
	bool kernel;       /* _[k] on kernel frames */
	bool jit;          /* _[j] on frames from /tmp/perf-PID.map */
	bool addrs;        /* [module <addr>] for unknown symbols */
	bool srcline;      /* input from `perf script -F+srcline` */
	bool inlined;      /* --inline: a frame becomes its inlined frames, from the file's DWARF */
	bool context;      /* --context: with inlined, each such frame gets ":file:line" */
	const char *event; /* keep this event only; NULL or "": the first one seen */
};

struct perfscript_stats {
	uint64_t lines;        /* lines read */
	uint64_t unrecognized; /* lines that are neither a header, an event nor a frame */
	uint64_t records;      /* samples added */
	uint64_t filtered;     /* event lines of another event than the one kept */
	uint64_t incomplete;   /* a last record without its closing blank line (0 or 1) */
	char event[64];        /* the event kept (the first seen by default), for a warning */
	char other_event[64];  /* the first event filtered out */
};

/*
 * Fold every sample read from lr into out. Returns 0, -EIO, -ENOMEM or -EOVERFLOW (a stack
 * whose weight exceeds 64 bits). Unrecognized lines are counted in st, never fatal.
 */
int perfscript_fold(struct lines *lr, const struct perfscript_opts *opts, struct folded *out,
		    struct perfscript_stats *st);

#endif
