/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.h - the `ember` command's subcommands, one file each in cli/ */
#ifndef EMBER_CLI_H
#define EMBER_CLI_H

#include <time.h>

/*
 * Each takes argv[0] as its own name ("collapse", "diff", ...) and returns the exit
 * status: 0, 1 (failure) or 2 (usage).
 */
int collapse_main(int argc, char **argv);   /* fold perf script, bpftrace or SystemTap stacks */
int diff_main(int argc, char **argv);       /* two folded profiles as "stack before after" */
int flamegraph_main(int argc, char **argv); /* folded stacks in, interactive SVG out */
int pprof_main(int argc, char **argv);      /* folded stacks in, gzipped profile.proto out */
int merge_main(int argc, char **argv);      /* archived windows of a time range as one profile */
int control_main(int argc, char **argv);    /* `snapshot` and `status` to the running emberd */
int view_main(int argc, char **argv);       /* flame graphs in the terminal, of files or live */

/*
 * Parse a point in time for `ember merge`: "YYYY-MM-DD HH:MM[:SS]" (or with a T),
 * "HH:MM[:SS]" today, "@EPOCH", "now", or "-N[smhd]" before now. Local time, as
 * archives are named. Returns 0 or -EINVAL.
 */
int merge_parse_time(const char *s, time_t now, time_t *out);

#endif
