/* SPDX-License-Identifier: BSD-2-Clause */
/* procmaps.c - the executable mappings of a process and the files behind them */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "symbolize/procmaps.h"

/* Bounds what one process can make us read and keep. */
#define PROCMAPS_MAX_BYTES (32u << 20)
#define PROCMAPS_MAX_ENTRIES 65536

/*
 * Read a /proc file whole (stat says 0 bytes, so the buffer doubles as it fills, up to
 * PROCMAPS_MAX_BYTES) and NUL-terminate it. Returns 0, -ENOMEM, -EFBIG past the cap, or a negative
 * errno from open or read.
 */
static int procmaps_slurp(const char *path, char **out, size_t *out_len)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int fd, err = 0;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 == cap) {
			char *nb = cap < PROCMAPS_MAX_BYTES ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				err = cap < PROCMAPS_MAX_BYTES ? -ENOMEM : -EFBIG;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (n < 0)
		err = -errno;
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

static void procmaps_classify(struct procmap *m, const char *path, size_t len)
{
	static const char deleted[] = " (deleted)";
	size_t dl = sizeof(deleted) - 1;

	if (len == 0) {
		m->kind = PROCMAP_ANON;
	} else if (path[0] == '[') {
		m->kind = len == 6 && !memcmp(path, "[vdso]", 6) ? PROCMAP_VDSO : PROCMAP_OTHER;
		m->path = strndup(path, len);
	} else {
		m->kind = PROCMAP_FILE;
		if (len > dl && !memcmp(path + len - dl, deleted, dl)) {
			m->deleted = 1;
			len -= dl;
		}
		m->path = strndup(path, len);
	}
}

/* One line: "start-end perms offset major:minor inode   path". Returns 1 if kept. */
static int procmaps_parse_line(const char *line, size_t len, struct procmap *m)
{
	unsigned int major, minor;
	char perms[5];
	int pos = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->start,
		   &m->end, perms, &m->pgoff, &major, &minor, &m->ino, &pos) < 7 ||
	    pos <= 0 || (size_t)pos > len)
		return 0;
	if (strlen(perms) < 3 || perms[2] != 'x' || m->end <= m->start)
		return 0;
	m->dev = makedev(major, minor);
	procmaps_classify(m, line + pos, len - (size_t)pos);
	if (m->kind != PROCMAP_ANON && !m->path)
		return -ENOMEM;
	return 1;
}

static int procmaps_cmp(const void *a, const void *b)
{
	const struct procmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int procmaps_parse(const char *text, size_t len, struct procmap **out)
{
	const char *p = text, *end = text + len;
	struct procmap *maps = NULL;
	int n = 0, cap = 0, err = 0;

	while (p < end && n < PROCMAPS_MAX_ENTRIES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[4352];
		int kept;

		if (ll < sizeof(line)) {
			memcpy(line, p, ll);
			line[ll] = '\0';
			if (n == cap) {
				struct procmap *nm =
					realloc(maps, (size_t)(cap ? cap * 2 : 64) * sizeof(*nm));

				if (!nm) {
					err = -ENOMEM;
					break;
				}
				maps = nm;
				cap = cap ? cap * 2 : 64;
			}
			kept = procmaps_parse_line(line, ll, &maps[n]);
			if (kept < 0) {
				err = kept;
				break;
			}
			n += kept;
		}
		p += ll + 1;
	}
	if (err) {
		procmaps_free(maps, n);
		return err;
	}
	if (n > 1)
		qsort(maps, (size_t)n, sizeof(*maps), procmaps_cmp);
	*out = maps;
	return n;
}

int procmaps_read(uint32_t pid, struct procmap **out)
{
	char path[64], *text = NULL;
	size_t len = 0;
	int n;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/maps", pid);
	n = procmaps_slurp(path, &text, &len);
	if (n)
		return n;
	n = procmaps_parse(text, len, out);
	free(text);
	return n;
}

void procmaps_free(struct procmap *maps, int n)
{
	for (int i = 0; i < n; i++)
		free(maps[i].path);
	free(maps);
}

static int procmaps_open_in_root(uint32_t pid, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char root[64];
	int dfd, fd;

	snprintf(root, sizeof(root), "/proc/%" PRIu32 "/root", pid);
	dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
	if (fd < 0)
		fd = -errno;
	close(dfd);
	return fd;
}

int procmaps_open(uint32_t pid, const struct procmap *m)
{
	char path[96];
	struct stat st;
	int fd;

	if (m->kind != PROCMAP_FILE)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/map_files/%" PRIx64 "-%" PRIx64, pid,
		 m->start, m->end);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		return fd;
	if (m->deleted)
		return -errno;
	fd = procmaps_open_in_root(pid, m->path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != m->dev ||
	    (uint64_t)st.st_ino != m->ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}
