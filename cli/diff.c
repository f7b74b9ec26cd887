/* SPDX-License-Identifier: BSD-2-Clause */
/* diff.c - `ember diff`: two folded profiles in, "stack before after" lines out */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "cli/cli.h"
#include "render/diff.h"
#include "lib/textfile.h"

static const char usage[] =
	"usage: ember diff [-n] [-s] BEFORE.folded AFTER.folded > diff.folded\n"
	"Write \"stack count_before count_after\" for every stack of either profile (plain or\n"
	"gzip), as difffolded.pl does; `ember flamegraph diff.folded` draws the differential.\n\n"
	"  -n   normalize: scale the first profile's counts to the second's total\n"
	"  -s   strip hex numbers (addresses) so that they match across runs\n";

/* Add one file to side of d. Returns 0 or 1 after printing an error. */
static int load(struct diff *d, int side, const char *path, struct textfile *t)
{
	uint64_t ignored = 0;
	int err = textfile_open(t, path);

	if (err) {
		fprintf(stderr, "ember diff: cannot open '%s': %s\n", path, strerror(-err));
		return 1;
	}
	err = diff_add_text(d, side, t->data ? t->data : "", t->len, &ignored);
	if (err) {
		fprintf(stderr, "ember diff: cannot read '%s': %s\n", path, strerror(-err));
		return 1;
	}
	if (ignored)
		fprintf(stderr,
			"ember diff: ignored %" PRIu64 " lines with invalid format in '%s'\n",
			ignored, path);
	return 0;
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int diff_main(int argc, char **argv)
{
	struct diff_opts o = { 0, 0 };
	struct textfile t[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct diff *d = NULL;
	int opt, rc = 1, err;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "nsh", long_opts, NULL)) != -1) {
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
	d = diff_new(&o);
	if (!d || load(d, 0, argv[optind], &t[0]) || load(d, 1, argv[optind + 1], &t[1]))
		goto cleanup;
	err = diff_write(d, stdout);
	if (fflush(stdout) && !err)
		err = -EIO;
	if (err)
		fprintf(stderr, "ember diff: cannot write: %s\n", strerror(-err));
	rc = err ? 1 : 0;
cleanup:
	diff_free(d);
	textfile_close(&t[0]);
	textfile_close(&t[1]);
	return rc;
}
