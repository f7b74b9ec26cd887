/* SPDX-License-Identifier: BSD-2-Clause */
/* pprof.h - export a folded profile as a gzipped pprof profile.proto */
#ifndef EMBER_PPROF_H
#define EMBER_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "collapse/folded.h"

struct pprof_opts {
	int nvalues;             /* values per sample: 1 or 2 */
	const char *types[2];    /* e.g. "samples", "cpu" */
	const char *units[2];    /* e.g. "count", "nanoseconds" */
	int64_t scale[2];        /* value i = weight x scale[i] */
	const char *period_type; /* NULL: no period */
	const char *period_unit;
	int64_t period;
	int64_t time_nanos, duration_nanos; /* when the profile was taken; 0: unknown */
};

/* Fill o for a kind of ember profile: "oncpu" (with freq in Hz), "offcpu", "alloc", "live". */
int pprof_opts_for_kind(struct pprof_opts *o, const char *kind, unsigned int freq);

/*
 * Write f as a gzip-compressed profile.proto (readable by go tool pprof, Pyroscope,
 * Parca). Frames become functions; kernel frames (_[k]) are filed under
 * "[kernel.kallsyms]", and annotations are stripped from names. Returns 0 or -errno.
 */
int pprof_write(struct folded *f, const struct pprof_opts *o, FILE *out);

#endif
