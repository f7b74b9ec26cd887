/* SPDX-License-Identifier: BSD-2-Clause */
/* test_archdir.c - the archive as files: listing, retention, crash leftovers */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "daemon/archdir.h"
#include "daemon/archive.h"
#include "harness.h"

static char dir[64];

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (dir[0] && system(cmd))
		fprintf(stderr, "cannot remove '%s'\n", dir);
}

static void fresh_dir(void)
{
	if (dir[0])
		remove_dir();
	else
		atexit(remove_dir);
	strcpy(dir, "/tmp/ember-archdir-XXXXXX");
	ASSERT_TRUE(mkdtemp(dir));
}

/* Create OUTPUT/sub/name with size bytes, modified at mtime. */
static void put(const char *sub, const char *name, size_t size, time_t mtime)
{
	struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };
	char path[256];
	char *buf = calloc(1, size + 1);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	ASSERT_EQ_INT(archive_mkdirs(path), 0);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	ASSERT_TRUE(fd >= 0);
	for (size_t i = 0; i < size; i++)
		buf[i] = (char)(i * 131 + 7); /* not sparse */
	ASSERT_EQ_INT(write(fd, buf, size), (int)size);
	close(fd);
	free(buf);
	ASSERT_EQ_INT(utimes(path, tv), 0);
}

static int present(const char *sub, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	return access(path, F_OK) == 0;
}

static void put_window(const char *sub, const char *stem, time_t mtime)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.oncpu.folded.gz", stem);
	put(sub, name, 4096, mtime);
	snprintf(name, sizeof(name), "%s.meta.json", stem);
	put(sub, name, 4096, mtime);
}

TEST(scan_groups_windows_and_skips_foreign_files)
{
	struct archdir ad;
	size_t windows = 0;

	fresh_dir();
	put_window("2026-01-02", "1000", 1000);
	put_window("2026-01-02", "1000-2", 1000);
	put_window("2026-01-02", "1001", 1060);
	put("2026-01-02", "notes.txt", 10, 1000);
	put("2026-01-02", ".1002.oncpu.folded.gz.ab12Cd", 10, 1000);
	put("other", "1000.oncpu.folded.gz", 10, 1000);
	ASSERT_EQ_INT(archdir_scan(dir, &ad), 0);
	ASSERT_EQ_INT(ad.n, 6);
	for (size_t i = 0; i < ad.n; i++)
		windows += archdir_window_first(&ad, i);
	ASSERT_EQ_INT(windows, 3);
	ASSERT_EQ_INT(ad.bytes, 6 * 4096);
	archdir_release(&ad);
}

TEST(window_start_from_names)
{
	struct archdir_entry e = { 0 };
	char path[] = "/o/2026-03-04/1505-2.oncpu.folded.gz";
	struct tm tm = { .tm_year = 126,
			 .tm_mon = 2,
			 .tm_mday = 4,
			 .tm_hour = 15,
			 .tm_min = 5,
			 .tm_isdst = -1 };
	time_t t;

	e.path = path;
	e.sub = path + 3;
	e.sub_len = 10;
	e.name = path + 14;
	e.stem_len = 6;
	ASSERT_EQ_INT(archdir_window_start(&e, &t), 0);
	ASSERT_EQ_INT(t, mktime(&tm));
	e.sub = "snapshots/x";
	e.sub_len = 9;
	ASSERT_TRUE(archdir_window_start(&e, &t) < 0);
}

TEST(prune_by_age_deletes_whole_old_windows)
{
	struct archdir_prune_stats st;
	time_t now = 1800000000;

	fresh_dir();
	put_window("2026-01-01", "0900", now - 8 * 86400);
	put_window("2026-01-08", "0900", now - 86400);
	put_window("snapshots", "2026-01-01T090000", now - 9 * 86400);
	put("2026-01-08", "keep.txt", 10, now - 30 * 86400);
	put_window("2026-01-08", "0901", now + 5); /* written after the check's clock */
	ASSERT_EQ_INT(archdir_prune(dir, now, 7 * 86400, 0, &st), 0);
	ASSERT_EQ_INT(st.windows, 2);
	ASSERT_EQ_INT(st.files, 4);
	ASSERT_TRUE(!present("2026-01-01", "0900.meta.json"));
	ASSERT_TRUE(!present("2026-01-01", "")); /* its empty folder too */
	ASSERT_TRUE(present("2026-01-08", "0900.oncpu.folded.gz"));
	ASSERT_TRUE(present("2026-01-08", "0901.oncpu.folded.gz"));
	ASSERT_TRUE(present("snapshots", "")); /* kept, though empty */
	ASSERT_TRUE(present("2026-01-08", "keep.txt"));
	ASSERT_EQ_INT(st.kept_bytes, 4 * 4096);
}

/* A day folder that is a symlink (to files elsewhere) is neither listed nor pruned through. */
TEST(symlinked_day_folders_are_not_followed)
{
	struct archdir_prune_stats st;
	time_t now = 1800000000;
	char elsewhere[128], link[128];

	fresh_dir();
	put_window("victim", "0900", now - 9 * 86400); /* not an archive folder: a bystander */
	snprintf(elsewhere, sizeof(elsewhere), "%s/victim", dir);
	snprintf(link, sizeof(link), "%s/2026-01-01", dir);
	ASSERT_EQ_INT(symlink(elsewhere, link), 0);
	ASSERT_EQ_INT(archdir_prune(dir, now, 7 * 86400, 0, &st), 0);
	ASSERT_EQ_INT(st.windows, 0);
	ASSERT_TRUE(present("victim", "0900.oncpu.folded.gz"));
}

TEST(prune_by_size_oldest_first)
{
	struct archdir_prune_stats st;
	time_t now = 1800000000;
	char stem[16];

	fresh_dir();
	for (int i = 0; i < 10; i++) {
		snprintf(stem, sizeof(stem), "10%02d", i);
		put_window("2026-01-08", stem, now - 600 + i * 60);
	}
	/* 10 windows of 8 KiB: keep at most 5 of them */
	ASSERT_EQ_INT(archdir_prune(dir, now, 7 * 86400, 5 * 8192 + 100, &st), 0);
	ASSERT_EQ_INT(st.windows, 5);
	ASSERT_TRUE(!present("2026-01-08", "1004.meta.json"));
	ASSERT_TRUE(!present("2026-01-08", "1004.oncpu.folded.gz"));
	ASSERT_TRUE(present("2026-01-08", "1005.meta.json"));
	ASSERT_TRUE(present("2026-01-08", "1009.oncpu.folded.gz"));
	ASSERT_EQ_INT(archdir_prune(dir, now, 0, 0, &st), 0);
	ASSERT_EQ_INT(st.windows, 0);
}

TEST(temporaries_of_interrupted_writes_are_removed)
{
	fresh_dir();
	put("2026-01-08", ".1000.oncpu.folded.gz.Ab3xYz", 100, 1000);
	put("snapshots", ".2026-01-08T100000.meta.json.q1w2e3", 100, 1000);
	put("2026-01-08", ".hidden-by-someone", 100, 1000);
	put_window("2026-01-08", "1000", 1000);
	ASSERT_EQ_INT(archdir_clean_temps(dir), 2);
	ASSERT_TRUE(!present("2026-01-08", ".1000.oncpu.folded.gz.Ab3xYz"));
	ASSERT_TRUE(present("2026-01-08", ".hidden-by-someone"));
	ASSERT_TRUE(present("2026-01-08", "1000.oncpu.folded.gz"));
	ASSERT_EQ_INT(archdir_clean_temps("/nonexistent/ember"), 0);
}
