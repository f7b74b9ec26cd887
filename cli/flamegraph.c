/* SPDX-License-Identifier: BSD-2-Clause */
/* flamegraph.c - `ember flamegraph`: folded stacks in, interactive SVG out */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "collapse/folded.h"
#include "render/flamegraph.h"
#include "render/palette.h"
#include "lib/textfile.h"

#define PALETTE_FILE "palette.map"

static const char usage[] =
	"usage: ember flamegraph [OPTIONS] [FILE...] > graph.svg\n"
	"Draw folded stacks (files or stdin, plain or gzip) as an interactive SVG flame graph.\n"
	"A second count column draws a differential (see ember diff). Options as flamegraph.pl's:\n\n"
	"  --title TEXT       title (default \"Flame Graph\")\n"
	"  --subtitle TEXT    second-level title\n"
	"  --width NUM        width in pixels (default: fluid, the SVG fills its window)\n"
	"  --height NUM       height of each frame (default 16)\n"
	"  --minwidth NUM     leave out narrower frames; pixels, or percent with a '%' (default 0.1)\n"
	"  --fonttype FONT    font (default Verdana)\n"
	"  --fontsize NUM     font size (default 12)\n"
	"  --fontwidth NUM    average character width relative to the font size (default 0.59)\n"
	"  --countname TEXT   what the counts are (default samples)\n"
	"  --nametype TEXT    what the names are (default \"Function:\")\n"
	"  --colors PALETTE   hot (default) mem io wakeup chain java js perl python rust red green\n"
	"                     blue aqua yellow purple orange\n"
	"  --bgcolors COLOR   background: yellow blue green grey or #rrggbb\n"
	"  --hash             colours keyed by name hash\n"
	"  --random           random colours\n"
	"  --deterministic    colours depend on names only (overrides --random)\n"
	"  --cp               consistent colours across graphs, kept in ./palette.map\n"
	"  --search-color C   colour of search matches (default rgb(230,0,230))\n"
	"  --reverse          merge stacks leaf first\n"
	"  --inverted         icicle graph\n"
	"  --flamechart       flame chart: input order on a time axis, stacks not merged\n"
	"  --negate           swap differential hues\n"
	"  --notes TEXT       a notes comment in the SVG\n"
	"  --nameattr FILE    extra attributes per name: NAME<TAB>attr=value<TAB>...\n"
	"  --total NUM        the width stands for this total (if not below the sum)\n"
	"  --factor NUM       multiply counts shown by NUM\n"
	"  --encoding NAME    encoding in the XML declaration\n\n"
	"Frames annotated _[k] (kernel), _[j] (JIT), _[i] (inlined), _[w] (waker) and _[o]\n"
	"(off-CPU, always a cold blue) steer the colours; the annotation is not drawn.\n";

enum {
	OPT_TITLE = 256,
	OPT_SUBTITLE,
	OPT_WIDTH,
	OPT_HEIGHT,
	OPT_MINWIDTH,
	OPT_FONTTYPE,
	OPT_FONTSIZE,
	OPT_FONTWIDTH,
	OPT_COUNTNAME,
	OPT_NAMETYPE,
	OPT_COLORS,
	OPT_BGCOLORS,
	OPT_HASH,
	OPT_RANDOM,
	OPT_DETERMINISTIC,
	OPT_CP,
	OPT_SEARCHCOLOR,
	OPT_REVERSE,
	OPT_INVERTED,
	OPT_FLAMECHART,
	OPT_NEGATE,
	OPT_NOTES,
	OPT_NAMEATTR,
	OPT_TOTAL,
	OPT_FACTOR,
	OPT_ENCODING,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "fonttype", required_argument, NULL, OPT_FONTTYPE },
	{ "fontsize", required_argument, NULL, OPT_FONTSIZE },
	{ "fontwidth", required_argument, NULL, OPT_FONTWIDTH },
	{ "countname", required_argument, NULL, OPT_COUNTNAME },
	{ "nametype", required_argument, NULL, OPT_NAMETYPE },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "bgcolors", required_argument, NULL, OPT_BGCOLORS },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "random", no_argument, NULL, OPT_RANDOM },
	{ "deterministic", no_argument, NULL, OPT_DETERMINISTIC },
	{ "cp", no_argument, NULL, OPT_CP },
	{ "search-color", required_argument, NULL, OPT_SEARCHCOLOR },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "flamechart", no_argument, NULL, OPT_FLAMECHART },
	{ "negate", no_argument, NULL, OPT_NEGATE },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "nameattr", required_argument, NULL, OPT_NAMEATTR },
	{ "total", required_argument, NULL, OPT_TOTAL },
	{ "factor", required_argument, NULL, OPT_FACTOR },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct cmd {
	struct fg_opts o;
	int cp, deterministic, random;
	const char *nameattr_path;
	struct namemap *nameattr, *palette_map;
};

/* A number in [min, max]. Returns 0 or -EINVAL after printing an error. */
static int number(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (!*arg || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "ember flamegraph: invalid --%s '%s'\n", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int minwidth(struct fg_opts *o, const char *arg)
{
	size_t n = strlen(arg);
	char buf[64];

	if (n && n < sizeof(buf) && arg[n - 1] == '%') {
		memcpy(buf, arg, n - 1);
		buf[n - 1] = '\0';
		o->minwidth_pct = 1;
		return number("minwidth", buf, 0, 100, &o->minwidth);
	}
	o->minwidth_pct = 0;
	return number("minwidth", arg, 0, 1e9, &o->minwidth);
}

/* Options that take a number. Returns 0, -EINVAL, or 1 if opt is not one of them. */
static int numeric_option(struct fg_opts *o, int opt, const char *arg)
{
	double v;
	int err;

	switch (opt) {
	case OPT_WIDTH:
		err = number("width", arg, 1, 1e6, &v);
		o->width = (int)v;
		return err;
	case OPT_HEIGHT:
		err = number("height", arg, 1, 1e4, &v);
		o->frameheight = (int)v;
		return err;
	case OPT_MINWIDTH:
		return minwidth(o, arg);
	case OPT_FONTSIZE:
		return number("fontsize", arg, 0.1, 1e3, &o->fontsize);
	case OPT_FONTWIDTH:
		return number("fontwidth", arg, 0.01, 100, &o->fontwidth);
	case OPT_TOTAL:
		return number("total", arg, 0, HUGE_VAL, &o->total);
	case OPT_FACTOR:
		return number("factor", arg, -HUGE_VAL, HUGE_VAL, &o->factor);
	}
	return 1;
}

/*
 * Options that name a palette or a colour, checked now so that a bad name is a usage error (the
 * background is checked against the hot palette: only its name matters here). Returns 0, -EINVAL,
 * or 1 if opt is not one of them.
 */
static int choice_option(struct cmd *c, int opt, const char *arg)
{
	struct fg_opts *o = &c->o;
	char c1[8], c2[8];
	int p;

	switch (opt) {
	case OPT_COLORS:
		p = palette_parse(arg);
		if (p < 0) {
			fprintf(stderr, "ember flamegraph: unknown palette '%s'\n", arg);
			return -EINVAL;
		}
		o->palette = (enum palette)p;
		return 0;
	case OPT_BGCOLORS:
		if (palette_background(arg, PAL_HOT, c1, c2)) {
			fprintf(stderr, "ember flamegraph: unknown background colour '%s'\n", arg);
			return -EINVAL;
		}
		o->bgcolors = arg;
		return 0;
	case OPT_SEARCHCOLOR:
		if (!palette_valid_color(arg)) {
			fprintf(stderr, "ember flamegraph: invalid --search-color '%s'\n", arg);
			return -EINVAL;
		}
		o->search_color = arg;
		return 0;
	}
	return 1;
}

/* Returns 0, -EINVAL, or 1 for --help. */
static int parse_option(struct cmd *c, int opt, const char *arg)
{
	struct fg_opts *o = &c->o;
	int err = numeric_option(o, opt, arg);

	if (err <= 0)
		return err;
	err = choice_option(c, opt, arg);
	if (err <= 0)
		return err;
	switch (opt) {
	case OPT_TITLE:
		o->title = arg;
		break;
	case OPT_SUBTITLE:
		o->subtitle = arg;
		break;
	case OPT_FONTTYPE:
		o->fonttype = arg;
		break;
	case OPT_COUNTNAME:
		o->countname = arg;
		break;
	case OPT_NAMETYPE:
		o->nametype = arg;
		break;
	case OPT_NOTES:
		o->notes = arg;
		break;
	case OPT_ENCODING:
		o->encoding = arg;
		break;
	case OPT_NAMEATTR:
		c->nameattr_path = arg;
		break;
	case OPT_HASH:
		o->color_mode = COLOR_BY_HASH;
		break;
	case OPT_RANDOM:
		c->random = 1;
		break;
	case OPT_DETERMINISTIC:
		c->deterministic = 1;
		break;
	case OPT_CP:
		c->cp = 1;
		break;
	case OPT_REVERSE:
		o->reverse = 1;
		break;
	case OPT_INVERTED:
		o->inverted = 1;
		break;
	case OPT_FLAMECHART:
		o->flamechart = 1;
		break;
	case OPT_NEGATE:
		o->negate = 1;
		break;
	case OPT_HELP:
	case 'h':
		return 1;
	default:
		return -EINVAL;
	}
	return 0;
}

struct rows {
	struct textfile *files; /* the rows point into them */
	int nfiles;
	struct fg_row *v;
	size_t n, cap;
	uint64_t ignored;
	int differential;
};

static int rows_add(struct rows *r, const struct folded_line *fl)
{
	if (r->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 1024;
		struct fg_row *nv = realloc(r->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = ncap;
	}
	r->v[r->n++] = (struct fg_row){ fl->stack, fl->stack_len, fl->counts[fl->ncounts - 1],
					fl->counts[0] };
	if (fl->ncounts == 2)
		r->differential = 1;
	return 0;
}

/* Every line of text, in order. Returns 0 or -ENOMEM. */
static int add_text(struct rows *r, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct folded_line fl;

		if (folded_parse_line(p, llen, &fl) == 0) {
			if (rows_add(r, &fl))
				return -ENOMEM;
		} else if (llen && !(llen == 1 && p[0] == '\r')) {
			r->ignored++;
		}
		p += llen + 1;
	}
	return 0;
}

/* Read every file (none: stdin). Returns 0 or 1 after printing an error. */
static int read_rows(struct rows *r, char **paths, int npaths)
{
	char dash[] = "-", *stdin_path[] = { dash };
	int n = npaths ? npaths : 1;

	if (!npaths)
		paths = stdin_path;
	r->files = calloc((size_t)n, sizeof(*r->files));
	if (!r->files)
		return 1;
	for (int i = 0; i < n; i++) {
		int err = textfile_open(&r->files[i], paths[i]);

		if (err) {
			fprintf(stderr, "ember flamegraph: cannot open '%s': %s\n", paths[i],
				strerror(-err));
			return 1;
		}
		r->nfiles++;
		err = add_text(r, r->files[i].data, r->files[i].len);
		if (err) {
			fprintf(stderr, "ember flamegraph: cannot read '%s': %s\n", paths[i],
				strerror(-err));
			return 1;
		}
	}
	return 0;
}

static void rows_release(struct rows *r)
{
	for (int i = 0; i < r->nfiles; i++)
		textfile_close(&r->files[i]);
	free(r->files);
	free(r->v);
}

/* NAME<TAB>attr=value<TAB>... per line, as flamegraph.pl's --nameattr. Returns 0 or 1. */
static int read_nameattr(struct cmd *c)
{
	FILE *f = fopen(c->nameattr_path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "ember flamegraph: cannot open '%s': %s\n", c->nameattr_path,
			strerror(errno));
		return 1;
	}
	c->nameattr = namemap_new();
	while (c->nameattr && (n = getline(&line, &cap, f)) > 0) {
		char *tab = strchr(line, '\t');

		line[strcspn(line, "\r\n")] = '\0';
		if (!tab) {
			fprintf(stderr, "ember flamegraph: invalid line in '%s': no tab\n",
				c->nameattr_path);
			rc = 1;
			break;
		}
		if (namemap_set(c->nameattr, line, (size_t)(tab - line), tab + 1))
			rc = 1;
	}
	if (!c->nameattr)
		rc = 1;
	free(line);
	fclose(f);
	c->o.nameattr = c->nameattr;
	return rc;
}

/* ./palette.map, "name->colour" per line, if there is one. Returns 0 or 1. */
static int read_palette_map(struct cmd *c)
{
	FILE *f = fopen(PALETTE_FILE, "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	c->palette_map = namemap_new();
	if (!c->palette_map)
		return 1;
	c->o.palette_map = c->palette_map;
	if (!f)
		return errno == ENOENT ? 0 : 1;
	while (getline(&line, &cap, f) > 0) {
		char *arrow = strstr(line, "->");

		line[strcspn(line, "\r\n")] = '\0';
		if (arrow && namemap_set(c->palette_map, line, (size_t)(arrow - line), arrow + 2))
			rc = 1;
	}
	free(line);
	fclose(f);
	return rc;
}

static int write_palette_map(struct cmd *c)
{
	const char **names, **values;
	size_t n;
	FILE *f;
	int rc = 0;

	if (namemap_sorted(c->palette_map, &names, &values, &n))
		return 1;
	f = fopen(PALETTE_FILE, "w");
	if (!f) {
		fprintf(stderr, "ember flamegraph: cannot write '%s': %s\n", PALETTE_FILE,
			strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s->%s\n", names[i], values[i]);
	if (fclose(f))
		rc = 1;
	return rc;
}

static void warnings(const struct cmd *c, const struct rows *r, const struct fg_stats *st)
{
	if (!strcmp(c->o.countname, "samples") && st->time > 0 && st->time < 100)
		fprintf(stderr,
			"ember flamegraph: stack count is low (%.15g); did something go wrong?\n",
			st->time);
	if (r->ignored)
		fprintf(stderr, "Ignored %" PRIu64 " lines with invalid format\n", r->ignored);
	if (st->total_ignored && c->o.total / st->time > 0.02)
		fprintf(stderr,
			"ember flamegraph: --total %.15g is less than the actual total %.15g, ignoring\n",
			c->o.total, st->time);
}

static int render(struct cmd *c, char **files, int nfiles)
{
	struct rows r = { 0 };
	struct fg_stats st = { 0 };
	int err;

	if (read_rows(&r, files, nfiles)) {
		rows_release(&r);
		return 1;
	}
	err = flamegraph_write_rows(r.v, r.n, r.differential, &c->o, stdout, &st);
	if (fflush(stdout) && !err)
		err = -EIO;
	warnings(c, &r, &st);
	rows_release(&r);
	if (err == -ENODATA) {
		fprintf(stderr, "ERROR: No stack counts found\n");
		return 2;
	}
	if (err)
		fprintf(stderr, "ember flamegraph: cannot write the graph: %s\n", strerror(-err));
	return err ? 1 : 0;
}

int flamegraph_main(int argc, char **argv)
{
	struct cmd c = { 0 };
	int opt, rc = 2;

	fg_opts_init(&c.o);
	optind = 1;
	while ((opt = getopt_long_only(argc, argv, "h", long_opts, NULL)) != -1) {
		int err = parse_option(&c, opt, optarg);

		if (err == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (err) {
			if (opt == '?')
				fputs(usage, stderr);
			return 2;
		}
	}
	if (c.random && !c.deterministic) {
		c.o.color_mode = COLOR_BY_RANDOM;
		srand48((long)time(NULL) ^ (long)getpid());
	}
	if ((c.nameattr_path && read_nameattr(&c)) || (c.cp && read_palette_map(&c)))
		goto cleanup;
	rc = render(&c, argv + optind, argc - optind);
	if (c.cp && rc == 0 && write_palette_map(&c))
		rc = 1;
cleanup:
	namemap_free(c.nameattr);
	namemap_free(c.palette_map);
	return rc;
}
