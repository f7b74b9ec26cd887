/* SPDX-License-Identifier: BSD-2-Clause */
/* zfile.c - read gzip-compressed or plain files through one stdio stream (zlib + fopencookie) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/zfile.h"

static ssize_t zfile_read(void *cookie, char *buf, size_t size)
{
	int n = gzread(cookie, buf, size > (1u << 30) ? 1u << 30 : (unsigned int)size);

	if (n < 0) {
		errno = EIO;
		return -1;
	}
	return n;
}

static int zfile_close(void *cookie)
{
	return gzclose(cookie) == Z_OK ? 0 : EOF;
}

FILE *zfile_open(const char *path)
{
	cookie_io_functions_t io = { .read = zfile_read, .close = zfile_close };
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	gzFile gz;
	FILE *f;

	if (fd < 0)
		return NULL;
	gz = gzdopen(fd, "rb"); /* plain files pass through unchanged */
	if (!gz) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	gzbuffer(gz, 1u << 17);
	f = fopencookie(gz, "r", io);
	if (!f) {
		gzclose(gz);
		errno = ENOMEM;
	}
	return f;
}
