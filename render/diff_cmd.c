/* SPDX-License-Identifier: BSD-2-Clause */
/* diff_cmd.c - `ember diff`: two folded profiles in, "stack before after" lines out */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "collapse/zfile.h"
#include "render/diff.h"

static const char usage[] =
	"usage: ember diff [-n] [-s] BEFORE.folded AFTER.folded > diff.folded\n"
	"Write \"stack count_before count_after\" for every stack of either profile (plain or\n"
	"gzip), as difffolded.pl does; `ember flamegraph diff.folded` draws the differential.\n\n"
	"  -n   normalize: scale the first profile's counts to the second's total\n"
	"  -s   strip hex numbers (addresses) so that they match across runs\n";

/* Read path into a new profile (hex stripped if asked). NULL after printing an error. */
static struct folded *load(const char *path, int strip_hex)
{
	struct folded_read_stats st = { 0, 0 };
	struct folded *f = folded_new(), *g = NULL;
	FILE *in = zfile_open(path);
	int err;

	if (!in) {
		fprintf(stderr, "ember diff: cannot open '%s': %s\n", path, strerror(errno));
		folded_free(f);
		return NULL;
	}
	err = f ? folded_read(f, in, &st) : -ENOMEM;
	fclose(in);
	if (!err && strip_hex) {
		g = folded_new();
		err = g ? diff_strip_hex(g, f) : -ENOMEM;
		folded_free(f);
		f = g;
	}
	if (err) {
		fprintf(stderr, "ember diff: cannot read '%s': %s\n", path, strerror(-err));
		folded_free(f);
		return NULL;
	}
	if (st.ignored)
		fprintf(stderr, "ember diff: ignored %" PRIu64 " lines with invalid format in '%s'\n",
			st.ignored, path);
	return f;
}

int diff_main(int argc, char **argv)
{
	struct diff_opts o = { 0, 0 };
	struct folded *a = NULL, *b = NULL;
	int opt, rc = 1, err;

	optind = 1;
	while ((opt = getopt(argc, argv, "nsh")) != -1) {
		switch (opt) {
		case 'n':
			o.normalize = 1;
			break;
		case 's':
			o.strip_hex = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fputs(usage, stderr);
		return 2;
	}
	a = load(argv[optind], o.strip_hex);
	b = a ? load(argv[optind + 1], o.strip_hex) : NULL;
	if (!a || !b)
		goto cleanup;
	err = diff_write(a, b, &o, stdout);
	if (fflush(stdout) && !err)
		err = -EIO;
	if (err)
		fprintf(stderr, "ember diff: cannot write: %s\n", strerror(-err));
	rc = err ? 1 : 0;
cleanup:
	folded_free(a);
	folded_free(b);
	return rc;
}
