/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.h - `ember collapse`: fold perf script, bpftrace or SystemTap stacks */
#ifndef EMBER_COLLAPSE_CLI_H
#define EMBER_COLLAPSE_CLI_H

/* argv[0] is "collapse". Returns the exit status: 0, 1 (failure) or 2 (usage). */
int collapse_main(int argc, char **argv);

#endif
