/* SPDX-License-Identifier: BSD-2-Clause */
/* archdir.c - the archive as files: list, measure, prune, clean up after a crash */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/archdir.h"

static const char *const suffixes[] = { ".folded.gz", ".pb.gz", ".svg", ".meta.json" };

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

static int archive_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ends_with(name, len, suffixes[i]))
			return 1;
	return 0;
}

/* ".NAME.XXXXXX", as atomic_open() names its temporaries */
static int temp_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] == '.' && len > 8 && name[len - 7] == '.' && archive_name(name + 1, len - 8);
}

/* YYYY-MM-DD or snapshots */
static int archive_sub(const char *name)
{
	if (!strcmp(name, "snapshots"))
		return 1;
	if (strlen(name) != 10 || name[4] != '-' || name[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (name[i] < '0' || name[i] > '9'))
			return 0;
	return 1;
}

/*
 * Append OUTDIR/SUB/NAME; sub, name and stem (the name up to its first '.') point into that one
 * allocation. The size is the space the file takes on disk (st_blocks), which is what pruning
 * frees. Returns 0 or -ENOMEM.
 */
static int add_entry(struct archdir *ad, const char *outdir, const char *sub, const char *name,
		     const struct stat *st)
{
	struct archdir_entry *e;
	size_t olen = strlen(outdir);

	if (ad->n == ad->cap) {
		size_t cap = ad->cap ? ad->cap * 2 : 256;
		void *p = realloc(ad->e, cap * sizeof(*ad->e));

		if (!p)
			return -ENOMEM;
		ad->e = p;
		ad->cap = cap;
	}
	e = &ad->e[ad->n];
	if (asprintf(&e->path, "%s/%s/%s", outdir, sub, name) < 0)
		return -ENOMEM;
	e->sub = e->path + olen + 1;
	e->sub_len = strlen(sub);
	e->name = e->sub + e->sub_len + 1;
	e->stem_len = strcspn(e->name, ".");
	e->mtime = st->st_mtime;
	e->size = (uint64_t)st->st_blocks * 512;
	ad->bytes += e->size;
	ad->n++;
	return 0;
}

/* Call fn on each regular file of each archive folder. Returns 0 or the first error. */
static int walk(const char *outdir,
		int (*fn)(void *arg, const char *sub, const char *name, int dirfd,
			  const struct stat *st),
		void *arg)
{
	DIR *top = opendir(outdir);
	struct dirent *s, *f;
	int err = 0;

	if (!top)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (s = readdir(top))) {
		DIR *dh;
		int fd;

		if (!archive_sub(s->d_name))
			continue;
		fd = openat(dirfd(top), s->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue; /* not a folder (a symlink is not followed), or gone */
		dh = fdopendir(fd);
		if (!dh) {
			err = -errno;
			close(fd);
			break;
		}
		while (!err && (f = readdir(dh))) {
			struct stat st;

			if (fstatat(dirfd(dh), f->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISREG(st.st_mode))
				continue;
			err = fn(arg, s->d_name, f->d_name, dirfd(dh), &st);
		}
		closedir(dh);
	}
	closedir(top);
	return err;
}

struct scan_arg {
	struct archdir *ad;
	const char *outdir;
};

static int scan_one(void *arg, const char *sub, const char *name, int dfd, const struct stat *st)
{
	struct scan_arg *a = arg;

	if (name[0] == '.' || !archive_name(name, strlen(name)))
		return 0;
	return add_entry(a->ad, a->outdir, sub, name, st);
}

static int by_window(const void *pa, const void *pb)
{
	const struct archdir_entry *a = pa, *b = pb;

	return strcmp(a->sub, b->sub);
}

int archdir_scan(const char *outdir, struct archdir *ad)
{
	struct scan_arg a = { ad, outdir };
	int err;

	memset(ad, 0, sizeof(*ad));
	err = walk(outdir, scan_one, &a);
	if (err) {
		archdir_release(ad);
		return err;
	}
	/* sub points at "SUB/NAME": comparing it orders by folder, then by name */
	if (ad->n > 1)
		qsort(ad->e, ad->n, sizeof(*ad->e), by_window);
	return 0;
}

void archdir_release(struct archdir *ad)
{
	for (size_t i = 0; i < ad->n; i++)
		free(ad->e[i].path);
	free(ad->e);
	memset(ad, 0, sizeof(*ad));
}

static int same_window(const struct archdir_entry *a, const struct archdir_entry *b)
{
	return a->sub_len == b->sub_len && a->stem_len == b->stem_len &&
	       !memcmp(a->sub, b->sub, a->sub_len + 1 + a->stem_len);
}

int archdir_window_first(const struct archdir *ad, size_t i)
{
	return i == 0 || !same_window(&ad->e[i - 1], &ad->e[i]);
}

/* "HHMM" or "HHMMSS", then nothing or "-N" */
static int parse_stem(const char *stem, size_t len, int *hms)
{
	size_t digits = 0;

	while (digits < len && stem[digits] >= '0' && stem[digits] <= '9')
		digits++;
	if ((digits != 4 && digits != 6) || (digits < len && stem[digits] != '-'))
		return -EINVAL;
	for (size_t i = 0; i < 3; i++)
		hms[i] = i * 2 < digits ? (stem[i * 2] - '0') * 10 + stem[i * 2 + 1] - '0' : 0;
	return 0;
}

int archdir_window_start(const struct archdir_entry *e, time_t *start)
{
	struct tm tm = { .tm_isdst = -1 };
	int hms[3];

	if (e->sub_len != 10 || parse_stem(e->name, e->stem_len, hms) ||
	    sscanf(e->sub, "%4d-%2d-%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3)
		return -EINVAL;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_hour = hms[0];
	tm.tm_min = hms[1];
	tm.tm_sec = hms[2];
	*start = mktime(&tm);
	return 0;
}

/* A window: entries [first, end) of the scan, its newest mtime and its size. */
struct window_group {
	size_t first, end;
	time_t mtime;
	uint64_t size;
};

static int by_age(const void *pa, const void *pb)
{
	const struct window_group *a = pa, *b = pb;

	return a->mtime < b->mtime ? -1 : a->mtime > b->mtime;
}

static struct window_group *group_windows(const struct archdir *ad, size_t *n)
{
	struct window_group *g = calloc(ad->n ? ad->n : 1, sizeof(*g));
	size_t k = 0;

	if (!g)
		return NULL;
	for (size_t i = 0; i < ad->n; i++) {
		if (archdir_window_first(ad, i))
			g[k++] = (struct window_group){ .first = i };
		g[k - 1].end = i + 1;
		g[k - 1].size += ad->e[i].size;
		if (ad->e[i].mtime > g[k - 1].mtime)
			g[k - 1].mtime = ad->e[i].mtime;
	}
	qsort(g, k, sizeof(*g), by_age);
	*n = k;
	return g;
}

/*
 * Open dir (a prefix of path, len bytes) without following a link at its last component.
 * Returns the descriptor or -errno.
 */
static int open_dir_nofollow(const char *path, size_t len)
{
	char dir[PATH_MAX];
	int fd;

	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len);
	dir[len] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * Delete the window's files, then its folder if that was the last. Files are unlinked
 * through their folder's descriptor, opened without following links: a day folder swapped
 * for a symlink since the scan deletes nothing elsewhere. Returns 0 or -errno.
 */
static int delete_window(const struct archdir *ad, const struct window_group *g,
			 struct archdir_prune_stats *st)
{
	const struct archdir_entry *e = &ad->e[g->first];
	int dfd = open_dir_nofollow(e->path, (size_t)(e->name - 1 - e->path)), pfd, err = 0;

	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	for (size_t i = g->first; i < g->end; i++) {
		if (unlinkat(dfd, ad->e[i].name, 0) && errno != ENOENT) {
			err = err ? err : -errno;
			continue;
		}
		st->files++;
		st->bytes += ad->e[i].size;
	}
	close(dfd);
	st->windows++;
	if (!strncmp(e->sub, "snapshots", e->sub_len) && e->sub_len == 9)
		return err;
	pfd = open_dir_nofollow(e->path, (size_t)(e->sub - 1 - e->path));
	if (pfd >= 0) {
		char sub[NAME_MAX + 1];

		snprintf(sub, sizeof(sub), "%.*s", (int)e->sub_len, e->sub);
		unlinkat(pfd, sub, AT_REMOVEDIR); /* fails while it holds files: as wanted */
		close(pfd);
	}
	return err;
}

int archdir_prune(const char *outdir, time_t now, uint64_t max_age, uint64_t max_bytes,
		  struct archdir_prune_stats *st)
{
	struct window_group *g = NULL;
	struct archdir ad;
	uint64_t bytes;
	size_t n = 0;
	int err;

	memset(st, 0, sizeof(*st));
	err = archdir_scan(outdir, &ad);
	if (err)
		return err;
	g = group_windows(&ad, &n);
	if (!g) {
		err = -ENOMEM;
		goto cleanup;
	}
	bytes = ad.bytes;
	for (size_t i = 0; i < n; i++) {
		/* a file stamped after now (clock steps, a late window) is young */
		int old = max_age && now > g[i].mtime && (uint64_t)(now - g[i].mtime) > max_age;
		int e;

		if (!old && !(max_bytes && bytes > max_bytes))
			break; /* the rest are younger */
		e = delete_window(&ad, &g[i], st);
		err = err ? err : e;
		bytes -= g[i].size;
	}
	st->kept_bytes = bytes;
cleanup:
	free(g);
	archdir_release(&ad);
	return err;
}

static int clean_one(void *arg, const char *sub, const char *name, int dfd, const struct stat *st)
{
	int *n = arg;

	if (temp_name(name) && !unlinkat(dfd, name, 0))
		(*n)++;
	return 0;
}

int archdir_clean_temps(const char *outdir)
{
	int n = 0, err = walk(outdir, clean_one, &n);

	return err ? err : n;
}
