/* SPDX-License-Identifier: BSD-2-Clause */
/* textfile.c - a whole input file in memory: a plain regular file is mapped (no copy, no page
 * fault per page), anything else (gzip, pipes, stdin) is read through zfile */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/sbuf.h"
#include "lib/zfile.h"
#include "lib/textfile.h"

/*
 * Read the whole file into a malloc'd buffer, gunzipped if need be: for stdin, gzip, empty files,
 * anything that is not a regular file and whatever cannot be mapped. Returns 0 or a negative errno.
 */
static int read_all(struct textfile *t, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	FILE *in = zfile_open(path);
	size_t n;
	int err = 0;

	if (!in)
		return -errno;
	do {
		if (sbuf_grow(&sb, 1 << 16)) {
			err = -ENOMEM;
			break;
		}
		n = fread(sb.buf + sb.len, 1, sb.cap - sb.len - 1, in);
		sb.len += n;
	} while (n > 0);
	if (!err && ferror(in))
		err = -EIO;
	fclose(in);
	if (err) {
		sbuf_release(&sb);
		return err;
	}
	t->data = sb.buf;
	t->len = sb.len;
	t->mapped = 0;
	return 0;
}

int textfile_open(struct textfile *t, const char *path)
{
	unsigned char magic[2];
	struct stat st;
	int fd, gz;
	void *p;

	if (!strcmp(path, "-"))
		return read_all(t, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	gz = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (gz || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return read_all(t, path);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return read_all(t, path);
	t->data = p;
	t->len = (size_t)st.st_size;
	t->mapped = 1;
	return 0;
}

void textfile_close(struct textfile *t)
{
	if (t->mapped)
		munmap(t->data, t->len);
	else
		free(t->data);
	t->data = NULL;
	t->len = 0;
}
