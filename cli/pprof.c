/* SPDX-License-Identifier: BSD-2-Clause */
/* pprof.c - `ember pprof`: folded stacks in, gzipped profile.proto out */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/zfile.h"
#include "render/pprof.h"

static const char usage[] =
	"usage: ember pprof [--kind KIND] [--freq HZ] [-o OUT] [FILE...]\n"
	"Convert folded stacks (files or stdin, plain or gzip) to a gzipped pprof profile.\n\n"
	"  --kind KIND   what the weights are: oncpu (samples; adds cpu nanoseconds at --freq),\n"
	"                offcpu (microseconds), alloc or live (bytes), samples (default)\n"
	"  --freq HZ     sampling frequency of an oncpu profile (default 49)\n"
	"  -o OUT        write to OUT instead of stdout\n";

/* Read each file (or stdin) into f. Returns 0 or 1 after printing an error. */
static int read_inputs(struct folded *f, char **files, int n)
{
	struct folded_read_stats st = { 0, 0 };
	int err = 0;

	for (int i = 0; i < (n ? n : 1) && !err; i++) {
		const char *name = n ? files[i] : "-";
		FILE *in = zfile_open(name);

		if (!in) {
			fprintf(stderr, "ember pprof: cannot open '%s': %s\n", name,
				strerror(errno));
			return 1;
		}
		err = folded_read(f, in, &st);
		fclose(in);
		if (err)
			fprintf(stderr, "ember pprof: cannot read '%s': %s\n", name,
				strerror(-err));
	}
	if (st.ignored)
		fprintf(stderr, "ember pprof: ignored %" PRIu64 " lines with invalid format\n",
			st.ignored);
	return err ? 1 : 0;
}

int pprof_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "freq", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kind = "samples", *outpath = NULL;
	unsigned long freq = 49;
	struct pprof_opts o;
	struct folded *f = NULL;
	FILE *out = stdout;
	int opt, rc = 1, err;
	char *end;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			kind = optarg;
			break;
		case 'F':
			freq = strtoul(optarg, &end, 10);
			if (*end || !*optarg || !freq || freq > 1000000) {
				fprintf(stderr, "ember pprof: invalid frequency '%s'\n", optarg);
				return 2;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (pprof_opts_for_kind(&o, kind, freq)) {
		fprintf(stderr, "ember pprof: unknown kind '%s'\n", kind);
		return 2;
	}
	if (!outpath && isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"ember pprof: not writing a binary profile to a terminal; use -o\n");
		return 2;
	}
	f = folded_new();
	if (!f || read_inputs(f, argv + optind, argc - optind))
		goto cleanup;
	if (outpath && !(out = fopen(outpath, "w"))) {
		fprintf(stderr, "ember pprof: cannot create '%s': %s\n", outpath, strerror(errno));
		goto cleanup;
	}
	err = pprof_write(f, &o, out);
	if (err)
		fprintf(stderr, "ember pprof: cannot write the profile: %s\n", strerror(-err));
	if (out != stdout && fclose(out) && !err)
		err = -errno;
	rc = err ? 1 : 0;
cleanup:
	folded_free(f);
	return rc;
}
