/* SPDX-License-Identifier: BSD-2-Clause */
/* ember.c - the ember command line: offline tools and daemon control, one subcommand each */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *help;
};

static const struct subcommand subcommands[] = {
	{ "collapse", collapse_main, "fold perf script, bpftrace or SystemTap stacks" },
	{ "diff", diff_main, "compare two folded profiles, as difffolded.pl" },
	{ "flamegraph", flamegraph_main, "draw folded stacks as an interactive SVG flame graph" },
	{ "pprof", pprof_main, "convert folded stacks to a pprof profile" },
	{ "view", view_main, "flame graphs in the terminal, of files or the running emberd" },
	{ "merge", merge_main, "merge archived windows of a time range into one profile" },
	{ "snapshot", control_main, "make the running emberd write a snapshot now" },
	{ "status", control_main, "show what the running emberd collects and writes" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: ember COMMAND [ARGS...]\n\ncommands:\n");
	for (const struct subcommand *c = subcommands; c->name; c++)
		fprintf(out, "  %-12s %s\n", c->name, c->help);
	fprintf(out, "\n'ember COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ember %s\n", EMBER_VERSION);
		return 0;
	}
	for (const struct subcommand *c = subcommands; c->name; c++) {
		if (!strcmp(argv[1], c->name)) {
			char name[32];

			/* getopt's messages then read "ember merge: unrecognized option ...". */
			snprintf(name, sizeof(name), "ember %s", c->name);
			argv[1] = name;
			return c->main(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "ember: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
