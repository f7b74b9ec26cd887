/* SPDX-License-Identifier: BSD-2-Clause */
/* merge.h - `ember merge`: archived windows of a time range as one profile */
#ifndef EMBER_MERGE_H
#define EMBER_MERGE_H

#include <time.h>

/*
 * Parse a point in time: "YYYY-MM-DD HH:MM[:SS]" (or with a T), "HH:MM[:SS]"
 * today, "@EPOCH", "now", or "-N[smhd]" before now. Local time, as archives are
 * named. Returns 0 or -EINVAL.
 */
int merge_parse_time(const char *s, time_t now, time_t *out);

int merge_main(int argc, char **argv);

#endif
