/* SPDX-License-Identifier: BSD-2-Clause */
/* test_archive.c - window files: names, gzip content, modes, atomicity */
#include <dirent.h>
#include <sys/stat.h>
#include <zlib.h>

#include "daemon/archive.h"
#include "harness.h"

static char dir[64];

/* A fresh output directory per test; the previous one is removed. */
static void setup(struct config *c)
{
	char cmd[128];

	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		ASSERT_EQ_INT(system(cmd), 0);
	}
	strcpy(dir, "/tmp/ember-archive-XXXXXX");
	ASSERT_TRUE(mkdtemp(dir));
	config_init(c);
	snprintf(c->output_dir, sizeof(c->output_dir), "%s", dir);
}

static size_t gunzip(const char *path, char *buf, size_t cap)
{
	gzFile gz = gzopen(path, "rb");
	int n;

	ASSERT_TRUE(gz);
	n = gzread(gz, buf, cap - 1);
	gzclose(gz);
	ASSERT_TRUE(n >= 0);
	buf[n] = '\0';
	return n;
}

static int count_hidden(const char *d)
{
	DIR *dh = opendir(d);
	struct dirent *e;
	int n = 0;

	ASSERT_TRUE(dh);
	while ((e = readdir(dh)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dh);
	return n;
}

/* The flame graph beside folded (".../HHMM.KIND.folded.gz") contains text. */
static void svg_has(const char *folded, const char *text)
{
	char path[512], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s.svg", (int)(strlen(folded) - strlen(".folded.gz")),
		 folded);
	f = fopen(path, "r");
	ASSERT_TRUE(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	ASSERT_TRUE(strstr(buf, "</svg>"));
	ASSERT_TRUE(strstr(buf, text));
}

TEST(window_written_sorted_and_gzipped)
{
	struct config c;
	struct window *w;
	char path[512], buf[4096];
	struct stat st;
	struct tm tm;
	time_t start = 1796234880; /* a whole minute */

	setup(&c);
	w = window_new(start);
	folded_add(w->profiles[KIND_ONCPU], "b;c", 3, 2);
	folded_add(w->profiles[KIND_ONCPU], "a;b", 3, 5);
	w->stats[KIND_ONCPU].samples = 7;
	ASSERT_EQ_INT(archive_write(&c, w, start + 60, 0), 1);
	localtime_r(&start, &tm);
	snprintf(path, sizeof(path), "%s/%04d-%02d-%02d/%02d%02d.oncpu.folded.gz", dir,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
	gunzip(path, buf, sizeof(buf));
	ASSERT_EQ_STR(buf, "a;b 5\nb;c 2\n");
	ASSERT_EQ_INT(stat(path, &st), 0);
	ASSERT_EQ_INT(st.st_mode & 0777, 0640);
	svg_has(path, "<title>b (2 samples, 28.57%)</title>");
	svg_has(path, ">oncpu on ");
	*strrchr(path, '/') = '\0';
	ASSERT_EQ_INT(count_hidden(path), 0);
	ASSERT_EQ_INT(stat(path, &st), 0);
	ASSERT_EQ_INT(st.st_mode & 0777, 0750);
	window_free(w);
}

TEST(empty_window_writes_nothing)
{
	struct config c;
	struct window *w;

	setup(&c);
	w = window_new(1796234880);
	ASSERT_EQ_INT(archive_write(&c, w, 1796234940, 0), 0);
	ASSERT_EQ_INT(archive_write(&c, w, 1796234940, 1), 0);
	window_free(w);
}

TEST(unwritable_directory_is_an_error)
{
	struct config c;
	struct window *w;

	setup(&c);
	snprintf(c.output_dir, sizeof(c.output_dir), "/proc/self/nonexistent");
	w = window_new(1796234880);
	folded_add(w->profiles[KIND_ONCPU], "a", 1, 1);
	ASSERT_TRUE(archive_write(&c, w, 1796234940, 0) < 0);
	window_free(w);
}
