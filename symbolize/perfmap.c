/* SPDX-License-Identifier: BSD-2-Clause */
/* perfmap.c - JIT symbols from /tmp/perf-PID.map, read defensively */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "symbolize/perfmap.h"

struct perfmap_entry {
	uint64_t start, size;
	uint32_t name, seq;
};

/* Only what parsed is kept: entries, and the names they point at; never the file's text. */
struct perfmap {
	int fd, refs;
	dev_t dev; /* the file's identity: processes that share a file share its map */
	ino_t ino;
	off_t parsed_size;
	struct perfmap_entry *ents;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/* Files are read in blocks of this size: a sparse 64 MiB map costs 1 MiB while read. */
#define PERFMAP_BLOCK (1u << 20)

struct perfmap *perfmap_new_empty(void)
{
	struct perfmap *pm = calloc(1, sizeof(*pm));

	if (pm) {
		pm->fd = -1;
		pm->refs = 1;
	}
	return pm;
}

static int perfmap_push(struct perfmap *pm, const struct perfmap_entry *e)
{
	if (pm->n == pm->cap) {
		size_t ncap = pm->cap ? pm->cap * 2 : 256;
		struct perfmap_entry *ne = realloc(pm->ents, ncap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		pm->ents = ne;
		pm->cap = ncap;
	}
	pm->ents[pm->n++] = *e;
	return 0;
}

/*
 * One hex field of a "START SIZE name" line, 0x optional: at most 16 digits, then one space, which
 * is stepped over. Returns 0 or -EINVAL (the line is skipped).
 */
static int perfmap_hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	int digits = 0;

	*v = 0;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; s < end && digits <= 16; s++, digits++) {
		int c = *s, d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		*v = *v << 4 | (uint64_t)d;
	}
	if (digits == 0 || digits > 16 || s >= end || *s != ' ')
		return -EINVAL;
	*p = s + 1;
	return 0;
}

/* Keep a copy of name (len bytes) in pm's name buffer; its offset goes to *off. */
static int perfmap_add_name(struct perfmap *pm, const char *name, size_t len, uint32_t *off)
{
	if (pm->names_len + len + 1 > pm->names_cap) {
		size_t ncap = pm->names_cap ? pm->names_cap : 4096;
		char *nn;

		while (ncap < pm->names_len + len + 1)
			ncap *= 2;
		nn = realloc(pm->names, ncap);
		if (!nn)
			return -ENOMEM;
		pm->names = nn;
		pm->names_cap = ncap;
	}
	*off = (uint32_t)pm->names_len;
	memcpy(pm->names + pm->names_len, name, len);
	pm->names[pm->names_len + len] = '\0';
	pm->names_len += len + 1;
	return 0;
}

/* "START SIZE name" (hex, optional 0x); a line that is not one is skipped. */
static int perfmap_parse_line(struct perfmap *pm, const char *line, const char *end, uint32_t seq)
{
	struct perfmap_entry e = { .seq = seq };
	const char *p = line;
	int err;

	if (perfmap_hex(&p, end, &e.start) || perfmap_hex(&p, end, &e.size))
		return 0;
	if (p >= end || e.size == 0 || e.start + e.size < e.start)
		return 0;
	for (const char *c = p; c < end; c++)
		if ((unsigned char)*c < 0x20)
			return 0;
	err = perfmap_add_name(pm, p, (size_t)(end - p), &e.name);
	return err ? err : perfmap_push(pm, &e);
}

static int perfmap_cmp(const void *pa, const void *pb)
{
	const struct perfmap_entry *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Later lines override earlier ones at the same address (code was regenerated). */
static void perfmap_finish(struct perfmap *pm)
{
	size_t n = 0;

	if (pm->n > 1)
		qsort(pm->ents, pm->n, sizeof(*pm->ents), perfmap_cmp);
	for (size_t i = 0; i < pm->n; i++) {
		if (n && pm->ents[n - 1].start == pm->ents[i].start)
			n--;
		pm->ents[n++] = pm->ents[i];
	}
	pm->n = n;
}

static void perfmap_reset(struct perfmap *pm)
{
	pm->n = 0;
	pm->names_len = 0;
}

/*
 * Parse the whole lines of text (len bytes); *seq numbers them. Returns the bytes taken (up to
 * the last newline), or -errno. Lines over PERFMAP_MAX_LINE are skipped.
 */
static long perfmap_parse_block(struct perfmap *pm, const char *text, size_t len, uint32_t *seq)
{
	const char *p = text, *end = text + len;
	int err = 0;

	while (p < end && !err && pm->n < PERFMAP_MAX_ENTRIES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break; /* a line still being written, or cut by the block */
		if (nl - p <= PERFMAP_MAX_LINE)
			err = perfmap_parse_line(pm, p, nl, (*seq)++);
		p = nl + 1;
	}
	return err ? err : (long)(p - text);
}

int perfmap_parse(struct perfmap *pm, const char *text, size_t len)
{
	uint32_t seq = 0;
	long n;

	perfmap_reset(pm);
	n = perfmap_parse_block(pm, text, len, &seq);
	perfmap_finish(pm);
	return n < 0 ? (int)n : 0;
}

/*
 * Read the first size bytes (at most PERFMAP_MAX_BYTES) block by block; a part line at a
 * block's end is carried into the next one, a line that fills a whole block is skipped.
 */
static int perfmap_read(struct perfmap *pm, off_t size)
{
	off_t limit = size > (off_t)PERFMAP_MAX_BYTES ? (off_t)PERFMAP_MAX_BYTES : size, off = 0;
	char *buf = malloc(PERFMAP_BLOCK);
	size_t have = 0;
	uint32_t seq = 0;
	long used = 0;

	if (!buf)
		return -ENOMEM;
	perfmap_reset(pm);
	while (off < limit && used >= 0) {
		size_t want = PERFMAP_BLOCK - have;
		ssize_t n = pread(pm->fd, buf + have,
				  want < (size_t)(limit - off) ? want : (size_t)(limit - off), off);

		if (n <= 0)
			break;
		off += n;
		have += (size_t)n;
		used = perfmap_parse_block(pm, buf, have, &seq);
		if (used < 0)
			break;
		if (used == 0 && have == PERFMAP_BLOCK)
			used = (long)have; /* one line longer than a block: dropped */
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
	}
	free(buf);
	perfmap_finish(pm);
	if (used < 0)
		return (int)used;
	pm->parsed_size = size;
	return 0;
}

int perfmap_refresh(struct perfmap *pm)
{
	struct stat st;
	int err;

	if (pm->fd < 0)
		return 0;
	if (fstat(pm->fd, &st))
		return -errno;
	if (st.st_size <= pm->parsed_size || pm->parsed_size >= (off_t)PERFMAP_MAX_BYTES)
		return 0;
	err = perfmap_read(pm, st.st_size);
	return err ? err : 1;
}

static int perfmap_open_fd(int dirfd, const char *name, uid_t uid)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd = (int)syscall(SYS_openat2, dirfd, name, &how, sizeof(how));

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_uid != 0 && st.st_uid != uid)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int perfmap_open(int dirfd, const char *name, uid_t uid, struct perfmap **out)
{
	struct stat st;
	struct perfmap *pm;
	int fd = perfmap_open_fd(dirfd, name, uid), err;

	if (fd < 0)
		return fd;
	pm = perfmap_new_empty();
	if (!pm) {
		close(fd);
		return -ENOMEM;
	}
	pm->fd = fd;
	if (!fstat(fd, &st)) {
		pm->dev = st.st_dev;
		pm->ino = st.st_ino;
	}
	err = perfmap_refresh(pm);
	if (err < 0) {
		perfmap_free(pm);
		return err;
	}
	*out = pm;
	return 0;
}

const char *perfmap_lookup(const struct perfmap *pm, uint64_t addr)
{
	size_t lo = 0, hi = pm->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pm->ents[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - pm->ents[lo - 1].start >= pm->ents[lo - 1].size)
		return NULL;
	return pm->names + pm->ents[lo - 1].name;
}

size_t perfmap_count(const struct perfmap *pm)
{
	return pm->n;
}

size_t perfmap_bytes(const struct perfmap *pm)
{
	return sizeof(*pm) + pm->cap * sizeof(*pm->ents) + pm->names_cap;
}

int perfmap_same_file(const struct perfmap *a, const struct perfmap *b)
{
	return a->fd >= 0 && b->fd >= 0 && a->dev == b->dev && a->ino == b->ino;
}

struct perfmap *perfmap_hold(struct perfmap *pm)
{
	pm->refs++;
	return pm;
}

int perfmap_refs(const struct perfmap *pm)
{
	return pm->refs;
}

void perfmap_free(struct perfmap *pm)
{
	if (!pm || --pm->refs > 0)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	free(pm->ents);
	free(pm->names);
	free(pm);
}
