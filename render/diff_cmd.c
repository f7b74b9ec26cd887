/* SPDX-License-Identifier: BSD-2-Clause */
/* diff_cmd.c - `ember diff`: two folded profiles in, "stack before after" lines out */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collapse/sbuf.h"
#include "collapse/zfile.h"
#include "render/diff.h"

static const char usage[] =
	"usage: ember diff [-n] [-s] BEFORE.folded AFTER.folded > diff.folded\n"
	"Write \"stack count_before count_after\" for every stack of either profile (plain or\n"
	"gzip), as difffolded.pl does; `ember flamegraph diff.folded` draws the differential.\n\n"
	"  -n   normalize: scale the first profile's counts to the second's total\n"
	"  -s   strip hex numbers (addresses) so that they match across runs\n";

/* A whole input file in memory: mapped if plain and regular, else read (and gunzipped). */
struct text {
	char *data;
	size_t len;
	int mapped;
};

static int read_all(const char *path, struct text *t)
{
	struct sbuf sb = SBUF_INIT;
	FILE *in = zfile_open(path);
	size_t n;
	int err = 0;

	if (!in)
		return -errno;
	do {
		if (sbuf_grow(&sb, 1 << 20)) {
			err = -ENOMEM;
			break;
		}
		n = fread(sb.buf + sb.len, 1, sb.cap - sb.len - 1, in);
		sb.len += n;
	} while (n > 0);
	if (!err && ferror(in))
		err = -EIO;
	fclose(in);
	t->data = sb.buf;
	t->len = sb.len;
	t->mapped = 0;
	return err;
}

/* Returns 0 or -errno. */
static int text_open(const char *path, struct text *t)
{
	unsigned char magic[2];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), gz;
	void *p;

	if (fd < 0)
		return -errno;
	gz = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (gz || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return read_all(path, t);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return read_all(path, t);
	t->data = p;
	t->len = (size_t)st.st_size;
	t->mapped = 1;
	return 0;
}

static void text_close(struct text *t)
{
	if (t->mapped)
		munmap(t->data, t->len);
	else
		free(t->data);
}

/* Add one file to side of d. Returns 0 or 1 after printing an error. */
static int load(struct diff *d, int side, const char *path, struct text *t)
{
	uint64_t ignored = 0;
	int err = text_open(path, t);

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
		fprintf(stderr, "ember diff: ignored %" PRIu64 " lines with invalid format in '%s'\n",
			ignored, path);
	return 0;
}

int diff_main(int argc, char **argv)
{
	struct diff_opts o = { 0, 0 };
	struct text t[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct diff *d = NULL;
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
	text_close(&t[0]);
	text_close(&t[1]);
	return rc;
}
