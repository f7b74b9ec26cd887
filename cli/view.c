/* SPDX-License-Identifier: BSD-2-Clause */
/* view.c - `ember view`: flame graphs in the terminal, from files or the running emberd */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/view.h"
#include "collapse/pprofread.h"
#include "lib/lines.h"
#include "lib/sbuf.h"
#include "lib/zfile.h"

static const char usage[] =
	"usage: ember view [OPTIONS] [FILE...]\n"
	"       ember view --live [--kind KIND] [--run-dir DIR]\n"
	"A flame graph in the terminal: folded stacks (plain or gzip, several merged, stdin),\n"
	"differential folded files (two counts, drawn red and blue), pprof profiles (ember's\n"
	".pb.gz, Go's), or the running emberd's current window. Without a terminal, or with\n"
	"--text, the tree is printed as indented text. Press ? for the keys.\n\n"
	"  --text           print the tree as text with percentages\n"
	"  --top N          print the N functions with the most self weight\n"
	"  --min PCT        text: leave out frames under PCT percent (default 0.5)\n"
	"  --inverted       icicle graph (root at the top); i toggles\n"
	"  --colors PALETTE hot (default) mem io wakeup chain java js perl python rust red green\n"
	"                   blue aqua yellow purple orange\n"
	"  --negate         swap differential hues\n"
	"  --type NAME      pprof: the sample type to show first (Tab switches)\n"
	"  --live           the running emberd's current window, refreshed at every drain\n"
	"  --kind KIND      live: oncpu (default), offcpu, hotcold, alloc, live (Tab switches)\n"
	"  --run-dir DIR    live: where emberd keeps its socket (default /run/ember, or\n"
	"                   $EMBER_RUN_DIR)\n"
	"  --timing FILE    append the time to the first screen and of each redraw to FILE\n\n"
	"Colours: truecolor on a terminal whose terminfo says so (TERM=xterm-direct), else 256\n"
	"or 8 colours; none with NO_COLOR set or on a dumb terminal.\n";

enum {
	OPT_TEXT = 256,
	OPT_TOP,
	OPT_MIN,
	OPT_INVERTED,
	OPT_COLORS,
	OPT_NEGATE,
	OPT_TYPE,
	OPT_LIVE,
	OPT_KIND,
	OPT_RUNDIR,
	OPT_TIMING,
	OPT_HELP,
};

struct cmd {
	struct view v;
	struct view_text_opts text;
	int force_text;
	const char *type, *kind, *timing;
};

/* Read a whole file (gzip or plain) into sb. Returns 0 or -errno. */
static int slurp(const char *path, struct sbuf *sb)
{
	FILE *in = zfile_open(path);
	size_t n;
	int err = 0;

	if (!in)
		return -errno;
	do {
		if (sbuf_grow(sb, 1 << 20)) {
			err = -ENOMEM;
			break;
		}
		n = fread(sb->buf + sb->len, 1, sb->cap - sb->len - 1, in);
		sb->len += n;
		sb->buf[sb->len] = '\0';
	} while (n > 0 && sb->len <= PPROF_MAX_BYTES * 4ull);
	if (!err && ferror(in))
		err = -EIO;
	fclose(in);
	return err;
}

static int add_count(struct folded **f, const char *stack, size_t len, double count)
{
	struct folded_entry e = { stack, len, (uint64_t)count, count - (double)(uint64_t)count };

	if (!*f && !(*f = folded_new()))
		return -ENOMEM;
	return folded_add_entry(*f, &e);
}

/* Folded lines into the first source; a second count makes it differential. */
static int parse_folded(struct view_source *s, struct lines *lr, size_t *bad)
{
	struct folded_line fl;
	const char *p;
	size_t n;
	int err = 0, rc;

	while (!err && (rc = lines_next(lr, &p, &n)) > 0) {
		if (!n || p[0] == '#')
			continue;
		if (folded_parse_line(p, n, &fl)) {
			(*bad)++;
			continue;
		}
		err = add_count(&s->after, fl.stack, fl.stack_len, fl.counts[fl.ncounts - 1]);
		if (!err && fl.ncounts == 2)
			err = add_count(&s->before, fl.stack, fl.stack_len, fl.counts[0]);
	}
	return err ?: rc;
}

static int merge(struct folded *dst, const struct folded *src)
{
	const struct folded_entry *e;
	size_t it = 0;
	int err = 0;

	while (!err && (e = folded_next(src, &it)))
		err = folded_add_entry(dst, e);
	return err;
}

/*
 * One pprof file into the sources: the first sets labels, units, default type; later ones must name
 * the same types (those both have are compared). Takes or merges p's profiles. 0, -ENOMEM, -EINVAL.
 */
static int take_pprof(struct view *v, struct pprof_profile *p, const char *path)
{
	if (!v->nsrc) {
		v->src = calloc((size_t)p->ntypes, sizeof(*v->src));
		if (!v->src)
			return -ENOMEM;
		v->nsrc = p->ntypes;
		v->cur = p->default_type;
		for (int t = 0; t < p->ntypes; t++) {
			snprintf(v->src[t].label, sizeof(v->src[t].label), "%s", p->type[t]);
			snprintf(v->src[t].unit, sizeof(v->src[t].unit), "%s", p->unit[t]);
		}
	}
	for (int t = 0; t < p->ntypes && t < v->nsrc; t++) {
		if (strcmp(v->src[t].label, p->type[t])) {
			fprintf(stderr,
				"ember view: '%s' has other sample types than the first file\n",
				path);
			return -EINVAL;
		}
		if (!v->src[t].after) {
			v->src[t].after = p->f[t];
			p->f[t] = NULL;
		} else if (merge(v->src[t].after, p->f[t])) {
			return -ENOMEM;
		}
	}
	return 0;
}

static int one_source(struct view *v, const char *label, const char *unit)
{
	v->src = calloc(1, sizeof(*v->src));
	if (!v->src)
		return -ENOMEM;
	v->nsrc = 1;
	snprintf(v->src[0].label, sizeof(v->src[0].label), "%s", label);
	snprintf(v->src[0].unit, sizeof(v->src[0].unit), "%s", unit);
	return 0;
}

static int load_pprof(struct view *v, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	struct pprof_profile p;
	int err = slurp(path, &sb), parsed = 0;

	if (!err) {
		err = sb.len > PPROF_MAX_BYTES
			      ? -EFBIG
			      : pprof_parse(&p, (const unsigned char *)sb.buf, sb.len);
		parsed = !err;
	}
	err = err ?: take_pprof(v, &p, path);
	if (parsed) /* what take_pprof did not take, also when it failed */
		pprof_profile_release(&p);
	sbuf_release(&sb);
	return err;
}

/* Whether the file starts like a pprof profile, and its folded lines when it does not. */
static int load_folded(struct view *v, const char *path, int *pp, size_t *bad)
{
	FILE *in = zfile_open(path);
	struct lines lr;
	const char *head;
	size_t n;
	int err;

	if (!in)
		return -errno;
	err = lines_init(&lr, in);
	err = err ?: lines_peek(&lr, &head, &n);
	if (!err) {
		*pp = pprof_sniff((const unsigned char *)head, n);
		if (!*pp && !v->nsrc)
			err = one_source(v, "samples", "samples");
		if (!*pp && !err)
			err = parse_folded(&v->src[0], &lr, bad);
	}
	lines_release(&lr);
	fclose(in);
	return err;
}

/* One input file into the sources. Returns 0 or -errno after printing why. */
static int load_file(struct view *v, const char *path, int *is_pprof)
{
	size_t bad = 0;
	int err, pp = 0, was = *is_pprof;

	if (!strcmp(path, "-") && was < 0) {
		err = load_folded(v, path, &pp, &bad); /* stdin can be read once: folded only */
		if (!err && pp)
			err = -EINVAL;
	} else {
		err = load_folded(v, path, &pp, &bad);
		if (!err && pp && (was < 0 || was == 1))
			err = load_pprof(v, path);
	}
	*is_pprof = pp;
	if (!err && was >= 0 && pp != was) {
		fprintf(stderr, "ember view: cannot merge pprof and folded files ('%s')\n", path);
		return -EINVAL;
	}
	if (err && err != -EINVAL)
		fprintf(stderr, "ember view: cannot read '%s': %s\n", path, strerror(-err));
	else if (err)
		fprintf(stderr, "ember view: '%s' is not a valid pprof profile\n", path);
	if (bad)
		fprintf(stderr, "ember view: ignored %zu lines with invalid format in '%s'\n", bad,
			path);
	return err;
}

/*
 * All files (stdin, folded only, when none) into the sources, then --type's selected; a source
 * without samples gets an empty profile. Returns 0 or -errno (printed, but -ENOMEM from here).
 */
static int load_files(struct cmd *c, char **paths, int n)
{
	static char dash[] = "-";
	static char *stdin_path[] = { dash };
	struct view *v = &c->v;
	int is_pprof = -1, err = 0;

	if (!n) {
		paths = stdin_path;
		n = 1;
	}
	for (int i = 0; i < n && !err; i++)
		err = load_file(v, paths[i], &is_pprof);
	if (err)
		return err;
	if (v->src[0].before)
		snprintf(v->src[0].label, sizeof(v->src[0].label), "differential");
	for (int t = 0; t < v->nsrc; t++)
		if (!v->src[t].after && !(v->src[t].after = folded_new()))
			return -ENOMEM;
	for (int t = 0; c->type && t < v->nsrc; t++)
		if (!strcmp(v->src[t].label, c->type))
			return (v->cur = t), 0;
	if (c->type) {
		fprintf(stderr, "ember view: no sample type '%s'\n", c->type);
		return -EINVAL;
	}
	return 0;
}

/*
 * --live: an empty source per kind and --kind's fetched once now (a failure printed with the
 * status); the next fetch is scheduled even then. Returns 0 or -errno.
 */
static int live_sources(struct cmd *c)
{
	struct view *v = &c->v;
	int err;

	v->src = calloc((size_t)view_nlive_kinds, sizeof(*v->src));
	if (!v->src)
		return -ENOMEM;
	v->nsrc = view_nlive_kinds;
	v->cur = -1;
	for (int k = 0; k < view_nlive_kinds; k++) {
		snprintf(v->src[k].label, sizeof(v->src[k].label), "%s", view_live_kinds[k]);
		snprintf(v->src[k].unit, sizeof(v->src[k].unit), "%s", view_live_units[k]);
		if (!strcmp(view_live_kinds[k], c->kind))
			v->cur = k;
		if (!(v->src[k].after = folded_new()))
			return -ENOMEM;
	}
	if (v->cur < 0) {
		fprintf(stderr, "ember view: unknown kind '%s'\n", c->kind);
		return -EINVAL;
	}
	err = view_live_fetch(v, &v->src[v->cur]);
	if (err)
		fprintf(stderr, "ember view: %s\n", v->live.status);
	v->live.next_fetch = view_live_next(v);
	return err;
}

static int number(const char *opt, const char *arg, double max, double *out)
{
	char *end;
	double x = strtod(arg, &end);

	if (!*arg || *end || !(x >= 0 && x <= max)) {
		fprintf(stderr, "ember view: invalid --%s '%s'\n", opt, arg);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

/* Returns 0, 1 (--help) or -EINVAL. */
static int parse_option(struct cmd *c, int opt, const char *arg)
{
	double x;
	int p;

	switch (opt) {
	case OPT_TEXT:
		c->force_text = 1;
		return 0;
	case OPT_TOP:
		c->force_text = 1;
		if (number("top", arg, 1e9, &x))
			return -EINVAL;
		c->text.top = x < 1 ? 1 : (int)x;
		return 0;
	case OPT_MIN:
		return number("min", arg, 100, &c->text.min_pct);
	case OPT_INVERTED:
		c->v.inverted = 1;
		return 0;
	case OPT_COLORS:
		p = palette_parse(arg);
		if (p < 0)
			fprintf(stderr, "ember view: unknown palette '%s'\n", arg);
		c->v.palette = p < 0 ? PAL_HOT : (enum palette)p;
		return p < 0 ? -EINVAL : 0;
	case OPT_NEGATE:
		c->v.negate = 1;
		return 0;
	case OPT_TYPE:
		c->type = arg;
		return 0;
	case OPT_LIVE:
		c->v.live.run_dir = c->v.live.run_dir ?: "";
		return 0;
	case OPT_KIND:
		c->kind = arg;
		return 0;
	case OPT_RUNDIR:
		c->v.live.run_dir = arg;
		return 0;
	case OPT_TIMING:
		c->timing = arg;
		return 0;
	case OPT_HELP:
		fputs(usage, stdout);
		return 1;
	}
	fputs(usage, stderr);
	return -EINVAL;
}

/*
 * Options into c (optind reset first, left at the first file); *live is or-ed with --live.
 * Returns 0, 1 for --help, or -EINVAL (also for --live with files).
 */
static int parse_args(struct cmd *c, int argc, char **argv, int *live)
{
	static const struct option opts[] = {
		{ "text", no_argument, NULL, OPT_TEXT },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "min", required_argument, NULL, OPT_MIN },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "colors", required_argument, NULL, OPT_COLORS },
		{ "negate", no_argument, NULL, OPT_NEGATE },
		{ "type", required_argument, NULL, OPT_TYPE },
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "run-dir", required_argument, NULL, OPT_RUNDIR },
		{ "timing", required_argument, NULL, OPT_TIMING },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int opt, err;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		*live |= opt == OPT_LIVE;
		err = parse_option(c, opt == 'h' ? OPT_HELP : opt, optarg);
		if (err)
			return err;
	}
	if (*live && optind < argc) {
		fprintf(stderr, "ember view: --live takes no files\n");
		return -EINVAL;
	}
	return 0;
}

static void cmd_release(struct cmd *c)
{
	struct view *v = &c->v;

	for (int i = 0; i < v->nsrc; i++) {
		folded_free(v->src[i].after);
		folded_free(v->src[i].before);
	}
	free(v->src);
	view_tree_release(&v->tree);
	free(v->match);
	free(v->color);
	free(v->rects);
	if (v->have_re)
		regfree(&v->re);
	if (v->timing)
		fclose(v->timing);
}

static int start(struct cmd *c, int argc, char **argv, int live)
{
	struct view *v = &c->v;
	const char *env = getenv("EMBER_RUN_DIR");

	v->title = argc - optind == 1 ? argv[optind] : argc == optind ? "stdin" : "merged";
	if (live) {
		if (!v->live.run_dir[0])
			v->live.run_dir = env && *env ? env : "/run/ember";
		v->title = "live";
		return live_sources(c);
	}
	v->live.run_dir = NULL;
	return load_files(c, argv + optind, argc - optind);
}

/* Stacks came on stdin: keys come from the terminal. Returns 0 or -errno. */
static int keys_from_tty(void)
{
	int fd = open("/dev/tty", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0) {
		fprintf(stderr, "ember view: no terminal to read keys from: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -ENOTTY;
	}
	close(fd);
	return 0;
}

int view_main(int argc, char **argv)
{
	struct cmd c;
	int live = 0, err, text;

	memset(&c, 0, sizeof(c));
	c.v.started = view_now();
	c.v.hover = VIEW_NONE;
	c.text.min_pct = 0.5;
	c.kind = "oncpu";
	err = parse_args(&c, argc, argv, &live);
	if (err)
		return err > 0 ? 0 : 2;
	setlocale(LC_ALL, "");
	c.v.utf8 = c.text.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (c.timing && !(c.v.timing = fopen(c.timing, "ae"))) {
		fprintf(stderr, "ember view: cannot open '%s': %s\n", c.timing, strerror(errno));
		return 1;
	}
	err = start(&c, argc, argv, live);
	err = err ?: view_load_tree(&c.v);
	text = c.force_text || !isatty(STDOUT_FILENO);
	if (!err && !text && !isatty(STDIN_FILENO))
		err = keys_from_tty();
	if (!err && text)
		err = view_text(&c.v.tree, c.v.src[c.v.cur].unit, &c.text, stdout);
	else if (!err)
		err = view_run(&c.v);
	if (err == -ENOMEM || err == -EIO)
		fprintf(stderr, "ember view: %s\n", strerror(-err));
	cmd_release(&c);
	return err ? 1 : 0;
}
