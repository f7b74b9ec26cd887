/* SPDX-License-Identifier: BSD-2-Clause */
/* collapse.c - `ember collapse`: options, inputs, one parser per format, folded output */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/bpftrace.h"
#include "cli/cli.h"
#include "collapse/folded.h"
#include "collapse/guess.h"
#include "lib/input.h"
#include "collapse/perfscript.h"
#include "collapse/recursion.h"
#include "collapse/stap.h"

struct cli {
	enum stack_format format;
	struct perfscript_opts perf;
	struct folded_filter filter;
	bool filtering;
	bool merge_recursion;
	enum folded_order order;
};

static const char *const format_names[] = {
	[FORMAT_PERF] = "perf",
	[FORMAT_BPFTRACE] = "bpftrace",
	[FORMAT_STAP] = "stap",
	[FORMAT_FOLDED] = "folded",
};

static const char usage_text[] =
	"usage: ember collapse [perf|bpftrace|stap|folded] [OPTIONS] [FILE...]\n"
	"\n"
	"Fold stack samples into 'frame;frame;frame count' lines, sorted, on stdout. Reads the\n"
	"FILEs one after the other, or stdin. Without a format, it is guessed from the input.\n"
	"  perf      'perf script' output, exactly as stackcollapse-perf.pl\n"
	"  bpftrace  bpftrace maps keyed by stacks, as stackcollapse-bpftrace.pl\n"
	"  stap      SystemTap backtraces with counts, as stackcollapse-stap.pl\n"
	"  folded    folded stacks: merged, filtered, sorted\n"
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
	"  --inline              expand inlined functions from each binary's DWARF (libdw)\n"
	"  --context             with --inline, add file:line to those frames\n"
	"\n"
	"common options:\n"
	"  --merge-recursion     fold direct recursion (as stackcollapse-recursive.pl)\n"
	"  --only-comm=NAME      keep the stacks of this process name\n"
	"  --only-pid=PID        keep the stacks of this PID (needs comm-PID frames: --pid)\n"
	"  --only-frame=REGEX    keep the stacks with a frame matching this extended regex\n"
	"  --exclude             drop the stacks the --only options select, keep the others\n"
	"  --sort=stack|weight   order of the output (default: stack, bytewise)\n"
	"  -h, --help            this text\n";

enum {
	OPT_EVENT = 256,
	OPT_MERGE_RECURSION,
	OPT_ONLY_COMM,
	OPT_ONLY_PID,
	OPT_ONLY_FRAME,
	OPT_EXCLUDE,
	OPT_SORT,
};

static const struct option long_opts[] = {
	{ "pid", no_argument, NULL, 'p' },
	{ "tid", no_argument, NULL, 't' },
	{ "kernel", no_argument, NULL, 'k' },
	{ "jit", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ "addrs", no_argument, NULL, 'A' },
	{ "srcline", no_argument, NULL, 's' },
	{ "inline", no_argument, NULL, 'i' },
	{ "context", no_argument, NULL, 'c' },
	{ "event-filter", required_argument, NULL, OPT_EVENT },
	{ "merge-recursion", no_argument, NULL, OPT_MERGE_RECURSION },
	{ "only-comm", required_argument, NULL, OPT_ONLY_COMM },
	{ "only-pid", required_argument, NULL, OPT_ONLY_PID },
	{ "only-frame", required_argument, NULL, OPT_ONLY_FRAME },
	{ "exclude", no_argument, NULL, OPT_EXCLUDE },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0 or -EINVAL. */
static int parse_value(struct cli *c, int opt, const char *arg)
{
	char *end;

	switch (opt) {
	case OPT_EVENT:
		c->perf.event = arg;
		return 0;
	case OPT_ONLY_COMM:
		c->filter.comm = arg;
		break;
	case OPT_ONLY_FRAME:
		c->filter.frame_re = arg;
		break;
	case OPT_ONLY_PID:
		errno = 0;
		c->filter.pid = strtol(arg, &end, 10);
		if (errno || *end || end == arg || c->filter.pid < 0)
			return -EINVAL;
		break;
	case OPT_SORT:
		if (strcmp(arg, "stack") && strcmp(arg, "weight"))
			return -EINVAL;
		c->order = strcmp(arg, "stack") ? FOLDED_BY_WEIGHT : FOLDED_BY_STACK;
		return 0;
	}
	c->filtering = true;
	return 0;
}

/* Returns 0, 1 after --help, or -EINVAL after a usage error. */
static int parse_options(struct cli *c, int argc, char **argv)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			c->perf.pid = true;
			break;
		case 't':
			c->perf.tid = true;
			break;
		case 'k':
			c->perf.kernel = true;
			break;
		case 'j':
			c->perf.jit = true;
			break;
		case 'a':
			c->perf.kernel = c->perf.jit = true;
			break;
		case 'A':
			c->perf.addrs = true;
			break;
		case 's':
			c->perf.srcline = true;
			break;
		case 'i':
			c->perf.inlined = true;
			break;
		case 'c':
			c->perf.context = true;
			break;
		case OPT_MERGE_RECURSION:
			c->merge_recursion = true;
			break;
		case OPT_EXCLUDE:
			c->filter.invert = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case '?':
			fputs(usage_text, stderr);
			return -EINVAL;
		default:
			if (parse_value(c, opt, optarg)) {
				fprintf(stderr, "ember collapse: invalid value '%s', see --help\n",
					optarg);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static void warn_count(uint64_t n, const char *what)
{
	if (n)
		fprintf(stderr, "ember collapse: %" PRIu64 " %s\n", n, what);
}

static int fold_perf(struct cli *c, struct lines *lr, struct folded *f)
{
	struct perfscript_stats st;
	int err = perfscript_fold(lr, &c->perf, f, &st);

	warn_count(st.unrecognized, "unrecognized lines skipped");
	if (st.filtered)
		fprintf(stderr,
			"ember collapse: %" PRIu64 " samples of events other than '%s' (such as "
			"'%s') skipped; choose one with --event-filter\n",
			st.filtered, st.event, st.other_event);
	warn_count(st.incomplete, "last sample without its closing blank line (truncated "
				  "input?) ignored");
	return err;
}

static int fold_bpftrace(struct lines *lr, struct folded *f)
{
	struct bpftrace_stats st;
	int err = bpftrace_fold(lr, f, &st);

	warn_count(st.unrecognized, "unrecognized lines skipped");
	warn_count(st.incomplete, "last map entry cut short (truncated input?) ignored");
	return err;
}

static int fold_stap(struct lines *lr, struct folded *f)
{
	struct stap_stats st;
	int err = stap_fold(lr, f, &st);

	warn_count(st.incomplete, "last stack without a count (truncated input?) ignored");
	return err;
}

static int fold_folded(struct lines *lr, struct folded *f)
{
	struct folded_read_stats st;
	int err = folded_read_lines(f, lr, &st);

	warn_count(st.ignored, "malformed lines skipped");
	return err;
}

/*
 * Fold the input with the parser of c->format; when no format was named it is guessed from the
 * first block of input, and an empty input goes to the perf parser. Returns 0 or a negative errno
 * (-EINVAL when the format cannot be told).
 */
static int fold(struct cli *c, struct lines *lr, struct folded *f)
{
	const char *buf;
	size_t len;
	int err;

	if (c->format == FORMAT_UNKNOWN) {
		err = lines_peek(lr, &buf, &len);
		if (err)
			return err;
		c->format = guess_format(buf, len);
		if (c->format == FORMAT_UNKNOWN && len) {
			fprintf(stderr, "ember collapse: cannot tell the input format; name it: "
					"ember collapse perf|bpftrace|stap|folded\n");
			return -EINVAL;
		}
	}
	switch (c->format) {
	case FORMAT_BPFTRACE:
		return fold_bpftrace(lr, f);
	case FORMAT_STAP:
		return fold_stap(lr, f);
	case FORMAT_FOLDED:
		return fold_folded(lr, f);
	default:
		return fold_perf(c, lr, f);
	}
}

/* Recursion merged and filters applied, into a new profile in *f. */
static int transform(struct cli *c, struct folded **f)
{
	struct folded *g;
	int err;

	if (c->merge_recursion) {
		g = folded_new();
		err = g ? folded_merge_recursion(g, *f) : -ENOMEM;
		folded_free(*f);
		*f = g;
		if (err)
			return err;
	}
	if (c->filtering) {
		g = folded_new();
		err = g ? folded_filter(g, *f, &c->filter) : -ENOMEM;
		folded_free(*f);
		*f = g;
		if (err == -EINVAL)
			fprintf(stderr, "ember collapse: invalid regex '%s'\n", c->filter.frame_re);
		return err;
	}
	return 0;
}

static int run(struct cli *c, struct input *in)
{
	struct folded *f = folded_new();
	int err = f ? fold(c, &in->lines, f) : -ENOMEM;

	if (!err)
		err = transform(c, &f);
	if (!err)
		err = folded_write_by(f, stdout, c->order);
	if (!err && fflush(stdout))
		err = -errno;
	folded_free(f);
	return err;
}

static enum stack_format format_of(const char *word)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (format_names[i] && !strcmp(word, format_names[i]))
			return (enum stack_format)i;
	return FORMAT_UNKNOWN;
}

int collapse_main(int argc, char **argv)
{
	struct cli c = { .format = FORMAT_UNKNOWN, .filter = { .pid = -1 } };
	const char *bad = NULL;
	struct input in;
	int err;

	if (argc > 1 && (c.format = format_of(argv[1])) != FORMAT_UNKNOWN) {
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
	err = run(&c, &in);
	if (err == -EOVERFLOW)
		fprintf(stderr,
			"ember collapse: weights past 2^64 - 1 in total, nothing written\n");
	else if (err && err != -EINVAL)
		fprintf(stderr, "ember collapse: %s\n", strerror(-err));
	input_close(&in);
	return err ? 1 : 0;
}
