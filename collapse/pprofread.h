/* SPDX-License-Identifier: BSD-2-Clause */
/* pprofread.h - read a pprof profile (profile.proto, gzipped or not) as one folded profile per sample type */
#ifndef EMBER_PPROFREAD_H
#define EMBER_PPROFREAD_H

#include <stddef.h>
#include <stdio.h>

#include "collapse/folded.h"

#define PPROF_MAX_TYPES 16           /* sample types kept; later ones are ignored */
#define PPROF_MAX_BYTES (512u << 20) /* an uncompressed profile larger than this is refused */
#define PPROF_MAX_DEPTH 4096 /* frames of a sample beyond this are dropped (root side kept) */

struct pprof_profile {
	int ntypes;
	int default_type; /* index of default_sample_type, 0 when unset */
	char *type[PPROF_MAX_TYPES], *unit[PPROF_MAX_TYPES];
	struct folded *f[PPROF_MAX_TYPES]; /* stacks root first; ';' in a name becomes ':' */
};

/*
 * Parse len bytes of an uncompressed profile into p (zeroed by the call). Only the fields
 * needed for stacks are read: sample_type, sample, location, function, string_table,
 * default_sample_type. Negative or zero values are skipped. Returns 0, -EINVAL (malformed),
 * -ENOMEM or -EOVERFLOW; p is released on error.
 */
int pprof_parse(struct pprof_profile *p, const unsigned char *buf, size_t len);

/* Whether buf (the start of a decompressed file) looks like a protobuf and not text. */
int pprof_sniff(const unsigned char *buf, size_t len);

void pprof_profile_release(struct pprof_profile *p);

#endif
