/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.c - `ember collapse`: options, inputs, one parser per format, folded output */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "collapse/cli.h"
#include "collapse/folded.h"
#include "collapse/input.h"
#include "collapse/perfscript.h"
#include "collapse/recursion.h"

enum format { FMT_GUESS, FMT_PERF };

struct cli {
	enum format format;
	struct perfscript_opts perf;
	bool merge_recursion;
};

static const char usage_text[] =
	"usage: ember collapse [perf] [OPTIONS] [FILE...]\n"
	"\n"
	"Fold stack samples into 'frame;frame;frame count' lines, sorted, on stdout.\n"
	"Reads the FILEs one after the other, or stdin.\n"
	"\n"
	"perf options (as stackcollapse-perf.pl):\n"
	"  --pid                 include the PID with process names\n"
	"  --tid                 include the PID and TID with process names\n"
	"  --kernel              annotate kernel functions with _[k]\n"
	"  --jit                 annotate JIT functions with _[j]\n"
	"  --all                 all annotations (--kernel --jit)\n"
	"  --addrs               include raw addresses where symbols can't be found\n"
	"  --event-filter=EVENT  keep this event only (default: the first one seen)\n"
	"  --srcline             input is from 'perf script -F+srcline': add source lines\n"
	"\n"
	"common options:\n"
	"  --merge-recursion     fold direct recursion (as stackcollapse-recursive.pl)\n"
	"  -h, --help            this text\n";

enum { OPT_EVENT = 256, OPT_MERGE_RECURSION };

static const struct option long_opts[] = {
	{ "pid", no_argument, NULL, 'p' },
	{ "tid", no_argument, NULL, 't' },
	{ "kernel", no_argument, NULL, 'k' },
	{ "jit", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ "addrs", no_argument, NULL, 'A' },
	{ "srcline", no_argument, NULL, 's' },
	{ "event-filter", required_argument, NULL, OPT_EVENT },
	{ "merge-recursion", no_argument, NULL, OPT_MERGE_RECURSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, 1 after --help, or -EINVAL after a usage error. */
static int parse_options(struct cli *c, int argc, char **argv)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'p': c->perf.pid = true; break;
		case 't': c->perf.tid = true; break;
		case 'k': c->perf.kernel = true; break;
		case 'j': c->perf.jit = true; break;
		case 'a': c->perf.kernel = c->perf.jit = true; break;
		case 'A': c->perf.addrs = true; break;
		case 's': c->perf.srcline = true; break;
		case OPT_EVENT: c->perf.event = optarg; break;
		case OPT_MERGE_RECURSION: c->merge_recursion = true; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: fputs(usage_text, stderr); return -EINVAL;
		}
	}
	return 0;
}

static void report_perf(const struct perfscript_stats *st)
{
	if (st->unrecognized)
		fprintf(stderr, "ember collapse: %" PRIu64 " unrecognized lines skipped\n",
			st->unrecognized);
	if (st->filtered)
		fprintf(stderr,
			"ember collapse: %" PRIu64 " samples of other events (first '%s') skipped; "
			"choose one with --event-filter\n",
			st->filtered, st->other_event);
	if (st->incomplete)
		fprintf(stderr, "ember collapse: the last sample has no closing blank line "
				"(truncated input?), ignoring\n");
}

static int fold(struct cli *c, struct lines *lr, struct folded *f)
{
	struct perfscript_stats st;
	int err = perfscript_fold(lr, &c->perf, f, &st);

	report_perf(&st);
	return err;
}

static int write_output(struct cli *c, struct folded *f)
{
	struct folded *m = NULL;
	int err = 0;

	if (c->merge_recursion) {
		m = folded_new();
		if (!m)
			return -ENOMEM;
		err = folded_merge_recursion(m, f);
		f = m;
	}
	if (!err)
		err = folded_write(f, stdout);
	if (!err && fflush(stdout))
		err = -errno;
	folded_free(m);
	return err;
}

int collapse_main(int argc, char **argv)
{
	struct cli c = { .format = FMT_GUESS };
	struct folded *f = NULL;
	struct input in;
	const char *bad = NULL;
	int err;

	if (argc > 1 && !strcmp(argv[1], "perf")) {
		c.format = FMT_PERF;
		argv++;
		argc--;
	}
	err = parse_options(&c, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = input_open(&in, argv + optind, argc - optind, &bad);
	if (err) {
		fprintf(stderr, "ember collapse: cannot open '%s': %s\n", bad ? bad : "-",
			strerror(-err));
		return 1;
	}
	f = folded_new();
	err = f ? fold(&c, &in.lines, f) : -ENOMEM;
	if (!err)
		err = write_output(&c, f);
	if (err)
		fprintf(stderr, "ember collapse: %s\n", strerror(-err));
	folded_free(f);
	input_close(&in);
	return err ? 1 : 0;
}
