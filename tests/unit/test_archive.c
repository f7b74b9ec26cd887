/* SPDX-License-Identifier: BSD-2-Clause */
/* test_archive.c - window files: names, gzip content, modes, atomicity */
#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
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
	ASSERT_EQ_INT(archive_write(&c, w, &(struct archive_info){ .end = start + 60 }, NULL), 1);
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

/* fsync as the archive calls it: counted per directory synced, then done for real. */
static int dirs_synced;

int fsync(int fd)
{
	struct stat st;

	if (!fstat(fd, &st) && S_ISDIR(st.st_mode))
		dirs_synced++;
	return (int)syscall(SYS_fsync, fd);
}

TEST(new_directories_and_renamed_files_are_made_durable)
{
	struct config c;
	struct window *w;

	setup(&c);
	snprintf(c.output_dir + strlen(c.output_dir), sizeof(c.output_dir) - strlen(dir), "/a/b");
	w = window_new(1796234880);
	folded_add(w->profiles[KIND_ONCPU], "a", 1, 1);
	dirs_synced = 0;
	ASSERT_EQ_INT(archive_write(&c, w, &(struct archive_info){ .end = 1796234940 }, NULL), 1);
	/* The parents of a, b and the day directory, then the day directory after the renames. */
	ASSERT_EQ_INT(dirs_synced, 4);
	dirs_synced = 0;
	ASSERT_EQ_INT(archive_write(&c, w, &(struct archive_info){ .end = 1796234940 }, NULL), 1);
	ASSERT_EQ_INT(dirs_synced, 1);
	window_free(w);
}

TEST(empty_window_writes_nothing)
{
	struct config c;
	struct window *w;

	setup(&c);
	w = window_new(1796234880);
	ASSERT_EQ_INT(archive_write(&c, w, &(struct archive_info){ .end = 1796234940 }, NULL), 0);
	ASSERT_EQ_INT(archive_write(&c, w,
				    &(struct archive_info){ .end = 1796234940, .snapshot = 1 },
				    NULL),
		      0);
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
	ASSERT_TRUE(archive_write(&c, w, &(struct archive_info){ .end = 1796234940 }, NULL) < 0);
	window_free(w);
}

/* Does the window's file STEM.SUFFIX exist? */
static int exists(const struct archive_result *r, const char *suffix)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s.%s", r->dir, r->stem, suffix);
	return access(path, F_OK) == 0;
}

TEST(same_second_snapshots_get_distinct_names)
{
	struct archive_info info = { .end = 1796234941, .snapshot = 1, .collectors = "oncpu" };
	struct archive_result r1, r2;
	struct config c;
	struct window *w;

	setup(&c);
	w = window_new(1796234880);
	folded_add(w->profiles[KIND_ONCPU], "a;b", 3, 4);
	ASSERT_EQ_INT(archive_write(&c, w, &info, &r1), 1);
	ASSERT_EQ_INT(archive_write(&c, w, &info, &r2), 1);
	ASSERT_TRUE(strcmp(r1.stem, r2.stem) != 0);
	ASSERT_EQ_STR(r2.stem + strlen(r1.stem), "-2");
	ASSERT_TRUE(exists(&r1, "oncpu.folded.gz"));
	ASSERT_TRUE(exists(&r2, "oncpu.folded.gz"));
	/* folded.gz, svg, pb.gz and meta.json */
	ASSERT_EQ_INT(r2.files, 4);
	ASSERT_TRUE(exists(&r2, "oncpu.svg"));
	ASSERT_TRUE(exists(&r2, "oncpu.pb.gz"));
	window_free(w);
}

TEST(no_pprof_no_svg_and_no_pprof_for_hotcold)
{
	struct archive_info info = { .end = 1796234940 };
	struct archive_result r;
	struct config c;
	struct window *w;

	setup(&c);
	w = window_new(1796234880);
	folded_add(w->profiles[KIND_HOTCOLD], "a;b", 3, 4);
	ASSERT_EQ_INT(archive_write(&c, w, &info, &r), 1);
	ASSERT_TRUE(!exists(&r, "hotcold.pb.gz"));
	folded_add(w->profiles[KIND_ONCPU], "a;b", 3, 4);
	c.no_pprof = c.no_svg = 1;
	ASSERT_EQ_INT(archive_write(&c, w, &info, &r), 2);
	ASSERT_EQ_STR(strrchr(r.stem, '-'), "-2");
	ASSERT_TRUE(!exists(&r, "oncpu.pb.gz"));
	ASSERT_TRUE(!exists(&r, "oncpu.svg"));
	ASSERT_EQ_INT(r.files, 3); /* two folded.gz and meta.json */
	window_free(w);
}

TEST(metadata_names_the_window)
{
	struct archive_info info = {
		.end = 1796234940, .collectors = "oncpu,offcpu", .frames = 10, .named = 9
	};
	struct archive_result r;
	char path[PATH_MAX * 2], buf[2048];
	struct config c;
	struct window *w;
	FILE *f;
	size_t n;

	setup(&c);
	w = window_new(1796234880);
	folded_add(w->profiles[KIND_ONCPU], "a;b", 3, 4);
	w->stats[KIND_ONCPU].samples = 5;
	w->stats[KIND_ONCPU].lost = 1;
	w->stats[KIND_ONCPU].walks = (struct unwind_walks){ 200, 194, 2, 5, 4 };
	ASSERT_EQ_INT(archive_write(&c, w, &info, &r), 1);
	snprintf(path, sizeof(path), "%s/%s.meta.json", r.dir, r.stem);
	f = fopen(path, "r");
	ASSERT_TRUE(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ASSERT_TRUE(strstr(buf, "\"start\": 1796234880,"));
	ASSERT_TRUE(strstr(buf, "\"end\": 1796234940,"));
	ASSERT_TRUE(strstr(buf, "\"frequency_hz\": 49,"));
	ASSERT_TRUE(strstr(buf, "\"collectors\": \"oncpu,offcpu\","));
	ASSERT_TRUE(strstr(buf, "\"named_share\": 0.9000,"));
	ASSERT_TRUE(strstr(buf, "\"oncpu\": { \"samples\": 5, \"lost\": 1, \"stacks\": 1"));
	ASSERT_TRUE(strstr(buf, "\"lost_stacks\": 0, \"user_stacks\": { \"walked\": 200, "
				"\"complete\": 194, \"complete_share\": 0.9700, \"cut\": 2, "
				"\"fp_steps\": 5, \"before_tables\": 4 } }"));
	ASSERT_TRUE(strstr(buf, "\"kernel\": \""));
	window_free(w);
}

TEST(a_window_that_fails_midway_leaves_nothing)
{
	struct archive_info info = { .end = 1796234940 };
	struct rlimit old, tiny = { 8192, 8192 };
	struct config c;
	struct window *w;
	char stack[64], sub[200];
	struct tm tm;
	time_t start = 1796234880;
	int err;

	setup(&c);
	w = window_new(start);
	folded_add(w->profiles[KIND_ONCPU], "a", 1, 1);
	/* An off-CPU profile far above the file size limit, written after the on-CPU one. */
	for (int i = 0; i < 20000; i++) {
		snprintf(stack, sizeof(stack), "app;f%x;g%x", i * 2654435761u, i * 40503u);
		folded_add(w->profiles[KIND_OFFCPU], stack, strlen(stack), (uint64_t)i * 7919);
	}
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	setrlimit(RLIMIT_FSIZE, &tiny);
	err = archive_write(&c, w, &info, NULL);
	setrlimit(RLIMIT_FSIZE, &old);
	ASSERT_EQ_INT(err, -EFBIG);
	localtime_r(&start, &tm);
	snprintf(sub, sizeof(sub), "%.100s/%04d-%02d-%02d", dir, tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday);
	/* no on-CPU file, no metadata, no temporary */
	{
		DIR *dh = opendir(sub);
		struct dirent *e;
		int n = 0;

		ASSERT_TRUE(dh);
		while ((e = readdir(dh)))
			n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(dh);
		ASSERT_EQ_INT(n, 0);
	}
	window_free(w);
}
