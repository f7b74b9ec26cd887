/* SPDX-License-Identifier: BSD-2-Clause */
/* merge.c - `ember merge`: archived windows of a time range as one profile */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/zfile.h"
#include "daemon/archdir.h"
#include "daemon/collect/window.h"
#include "daemon/config/config.h"
#include "cli/cli.h"
#include "render/flamegraph.h"

struct merge_opts {
	const char *dir, *kind, *out;
	time_t since, until;
	long pid;
	int svg;
};

static int parse_relative(const char *s, time_t now, time_t *out)
{
	static const struct {
		char unit;
		long sec;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	char *end;
	long v;

	errno = 0;
	v = strtol(s + 1, &end, 10);
	if (errno || end == s + 1 || v < 0 || end[0] == '\0' || end[1] != '\0')
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (*end == units[i].unit) {
			if (v > LONG_MAX / 2 / units[i].sec)
				return -ERANGE; /* further back than time_t reaches */
			*out = now - (time_t)v * units[i].sec;
			return 0;
		}
	}
	return -EINVAL;
}

/* The whole string must be taken by one of the formats. */
static int parse_clock(const char *s, time_t now, time_t *out)
{
	static const char *const formats[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					       "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	struct tm tm;
	const char *end;

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, formats[i], &tm);
		if (end && !*end)
			goto found;
	}
	localtime_r(&now, &tm);
	tm.tm_sec = 0;
	end = strptime(s, "%H:%M:%S", &tm);
	if (!end || *end) {
		tm.tm_sec = 0;
		end = strptime(s, "%H:%M", &tm);
	}
	if (!end || *end)
		return -EINVAL;
found:
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	return *out == (time_t)-1 ? -EINVAL : 0;
}

int merge_parse_time(const char *s, time_t now, time_t *out)
{
	char *end;
	long long v;

	if (!strcmp(s, "now")) {
		*out = now;
		return 0;
	}
	if (s[0] == '-')
		return parse_relative(s, now, out);
	if (s[0] == '@') {
		errno = 0;
		v = strtoll(s + 1, &end, 10);
		if (errno || end == s + 1 || *end)
			return -EINVAL;
		*out = (time_t)v;
		return 0;
	}
	return parse_clock(s, now, out);
}

/*
 * Add the stacks of one archived file (gzip or plain) to f. With --pid it is read into a profile of
 * its own first, as the filter copies from one profile into another. Prints the error. Returns 0 or
 * a negative errno.
 */
/* Whether any stack of f names its process ID in its first frame ("comm-PID"). */
static int names_pids(const struct folded *f)
{
	const struct folded_entry *e;
	size_t it = 0;
	long pid;

	while ((e = folded_next(f, &it))) {
		const char *semi = memchr(e->stack, ';', e->len);

		folded_split_comm(e->stack, semi ? (size_t)(semi - e->stack) : e->len, &pid);
		if (pid >= 0)
			return 1;
	}
	return 0;
}

/* Add one window's stacks to f (only --pid's, when set; *pids is set when any names a PID). */
static int add_file(struct folded *f, const char *path, const struct merge_opts *o, int *pids)
{
	struct folded *one = o->pid >= 0 ? folded_new() : NULL;
	struct folded_filter flt = { .pid = o->pid };
	FILE *in = zfile_open(path);
	int err;

	if (!in) {
		err = -errno;
		goto cleanup;
	}
	if (o->pid >= 0 && !one) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = folded_read(one ? one : f, in, NULL);
	if (!err && one) {
		*pids |= names_pids(one);
		err = folded_filter(f, one, &flt);
	}
cleanup:
	if (in)
		fclose(in);
	folded_free(one);
	if (err)
		fprintf(stderr, "ember merge: cannot read '%s': %s\n", path, strerror(-err));
	return err;
}

/* Is e the KIND.folded.gz of a window that starts within [since, until)? */
static int selected(const struct archdir_entry *e, const struct merge_opts *o)
{
	char name[64];
	time_t start;

	snprintf(name, sizeof(name), ".%s.folded.gz", o->kind);
	if (strcmp(e->name + e->stem_len, name) || archdir_window_start(e, &start))
		return 0;
	return start >= o->since && start < o->until;
}

/* Returns the number of windows merged, or -errno. */
static int merge_windows(struct folded *f, const struct merge_opts *o)
{
	struct archdir ad;
	int err, n = 0, pids = 0;

	err = archdir_scan(o->dir, &ad);
	if (err) {
		fprintf(stderr, "ember merge: cannot read the archive '%s': %s\n", o->dir,
			strerror(-err));
		return err;
	}
	for (size_t i = 0; i < ad.n && !err; i++) {
		if (!selected(&ad.e[i], o))
			continue;
		err = add_file(f, ad.e[i].path, o, &pids);
		n++;
	}
	archdir_release(&ad);
	if (!err && n && o->pid >= 0 && !folded_count(f)) {
		if (pids)
			fprintf(stderr, "ember merge: process %ld has no %s stacks in that range\n",
				o->pid, o->kind);
		else
			fprintf(stderr, "ember merge: --pid needs stacks that name their process: "
					"these windows were written without --with-pid\n");
		err = -ENOENT;
	}
	return err ? err : n;
}

/* A local time for a title; a time no calendar holds (--since @-9223372036854775807) as "@T". */
static void title_time(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "@%lld", (long long)t);
}

/* The kind's flame graph, titled with the range. */
static int write_svg(struct folded *f, const struct merge_opts *o, FILE *out)
{
	char title[160], from[32], to[32];
	struct fg_opts fo;

	fg_opts_init(&fo);
	fg_opts_for_kind(&fo, o->kind);
	title_time(from, sizeof(from), o->since);
	title_time(to, sizeof(to), o->until);
	snprintf(title, sizeof(title), "%s, %s to %s", o->kind, from, to);
	fo.title = title;
	return flamegraph_write(f, &fo, out);
}

static int write_out(struct folded *f, const struct merge_opts *o)
{
	FILE *out = o->out ? fopen(o->out, "we") : stdout;
	int err;

	if (!out) {
		fprintf(stderr, "ember merge: cannot create '%s': %s\n", o->out, strerror(errno));
		return -errno;
	}
	err = o->svg ? write_svg(f, o, out) : folded_write(f, out);
	if (fflush(out) && !err)
		err = -errno;
	if (out != stdout && fclose(out) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "ember merge: cannot write the merged profile: %s\n",
			strerror(-err));
	return err;
}

static const char usage_text[] =
	"usage: ember merge [--since TIME] [--until TIME] [--kind KIND] [--pid PID]\n"
	"                   [--svg] [-d DIR] [-o FILE]\n"
	"Merge the archived windows that start in [since, until) into one folded profile.\n\n"
	"  --since TIME   'YYYY-MM-DD HH:MM[:SS]', 'HH:MM[:SS]' (today), '@EPOCH', '-2h'\n"
	"                 (s, m, h, d before now) or 'now' (default -1h)\n"
	"  --until TIME   the same (default now)\n"
	"  --kind KIND    oncpu, offcpu, alloc, live, hotcold, heap (default oncpu)\n"
	"  --pid PID      only stacks of this process (archives written with --with-pid)\n"
	"  --svg          write the flame graph instead of folded stacks\n"
	"  -d, --dir DIR  the archive: emberd's output directory (default %s)\n"
	"  -o FILE        write here instead of standard output\n";

/*
 * Apply one option to o; times are relative to now. Returns 0, or -EINVAL after saying which value
 * was bad (an unknown option says nothing here: getopt already did).
 */
static int parse_opt(struct merge_opts *o, int opt, const char *arg, time_t now)
{
	char *end;

	switch (opt) {
	case 's':
	case 'u':
		if (merge_parse_time(arg, now, opt == 's' ? &o->since : &o->until))
			break;
		return 0;
	case 'k':
		o->kind = NULL;
		for (int k = 0; k < KIND_MAX; k++)
			if (!strcmp(arg, profile_kind_names[k]))
				o->kind = profile_kind_names[k];
		if (o->kind)
			return 0;
		fprintf(stderr, "ember merge: unknown kind '%s' (kinds:", arg);
		for (int k = 0; k < KIND_MAX; k++)
			fprintf(stderr, " %s", profile_kind_names[k]);
		fputs(")\n", stderr);
		return -EINVAL;
	case 'p':
		o->pid = strtol(arg, &end, 10);
		if (*end || end == arg || o->pid < 0)
			break;
		return 0;
	case 'd':
		o->dir = arg;
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	case 'g':
		o->svg = 1;
		return 0;
	default:
		return -EINVAL;
	}
	fprintf(stderr, "ember merge: invalid value '%s' for --%s\n", arg,
		opt == 's'   ? "since"
		: opt == 'u' ? "until"
			     : "pid");
	return -EINVAL;
}

/*
 * Fill o from the command line; by default the oncpu windows of the last hour in defdir. now is
 * read once, so that defaults, --since and --until agree. Returns 0, 1 after --help, or -EINVAL
 * after a usage error.
 */
static int parse_args(struct merge_opts *o, int argc, char **argv, const char *defdir)
{
	static const struct option opts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "kind", required_argument, NULL, 'k' },
		{ "pid", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "svg", no_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	time_t now = time(NULL);
	int opt;

	*o = (struct merge_opts){ defdir, "oncpu", NULL, now - 3600, now, -1, 0 };
	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:o:h", opts, NULL)) != -1) {
		if (opt == 'h') {
			printf(usage_text, defdir);
			return 1;
		}
		if (parse_opt(o, opt, optarg, now))
			return -EINVAL;
	}
	if (optind < argc) {
		fprintf(stderr, "ember merge: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->until <= o->since) {
		fprintf(stderr, "ember merge: --until must be later than --since\n");
		return -EINVAL;
	}
	return 0;
}

int merge_main(int argc, char **argv)
{
	static struct config defaults;
	struct merge_opts o;
	struct folded *f;
	int n;

	config_init(&defaults);
	n = parse_args(&o, argc, argv, defaults.output_dir);
	if (n)
		return n > 0 ? 0 : 2;
	f = folded_new();
	if (!f)
		return 1;
	n = merge_windows(f, &o);
	if (n == 0)
		fprintf(stderr, "ember merge: no %s windows in '%s' start in that range\n", o.kind,
			o.dir);
	if (n > 0)
		n = write_out(f, &o) ? -1 : n;
	if (n > 0)
		fprintf(stderr, "ember merge: merged %d window(s)\n", n);
	folded_free(f);
	return n > 0 ? 0 : 1;
}
