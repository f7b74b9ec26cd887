/* SPDX-License-Identifier: BSD-2-Clause */
/* test_perfmap.c - parsing perf-PID.map text: overrides, bounds, garbage */
#include <fcntl.h>
#include <unistd.h>

#include "symbolize/perfmap.h"
#include "tests/unit/harness.h"

static struct perfmap *parse(const char *text)
{
	struct perfmap *pm = perfmap_new_empty();

	if (!pm || perfmap_parse(pm, text, strlen(text))) {
		perfmap_free(pm);
		return NULL;
	}
	return pm;
}

TEST(entries_found_by_range)
{
	struct perfmap *pm = parse("1000 10 first\n2000 0x20 second with spaces\n0x3000 8 third\n");

	ASSERT_TRUE(pm);
	ASSERT_EQ_INT(perfmap_count(pm), 3);
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x1000), "first");
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x100f), "first");
	ASSERT_TRUE(perfmap_lookup(pm, 0x1010) == NULL);
	ASSERT_TRUE(perfmap_lookup(pm, 0xfff) == NULL);
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x201f), "second with spaces");
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x3007), "third");
	perfmap_free(pm);
}

TEST(later_entry_at_same_address_wins)
{
	struct perfmap *pm = parse("1000 10 old\n5000 10 other\n1000 20 recompiled\n");

	ASSERT_TRUE(pm);
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x1018), "recompiled");
	ASSERT_EQ_INT(perfmap_count(pm), 2);
	perfmap_free(pm);
}

TEST(garbage_lines_are_skipped)
{
	struct perfmap *pm = parse("\n\nnot a line\n1000\n1000 \n1000 10\n1000 10 \n"
				   "g000 10 bad\n1000 zz bad\nffffffffffffffff 10 wraps\n"
				   "12345678901234567 10 toolong\n4000 10 ok\n5000 10 tail");

	ASSERT_TRUE(pm);
	ASSERT_EQ_INT(perfmap_count(pm), 1);
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x4004), "ok");
	ASSERT_TRUE(perfmap_lookup(pm, 0x5004) == NULL); /* no newline yet */
	perfmap_free(pm);
}

TEST(empty_map)
{
	struct perfmap *pm = parse("");

	ASSERT_TRUE(pm);
	ASSERT_EQ_INT(perfmap_count(pm), 0);
	ASSERT_TRUE(perfmap_lookup(pm, 0) == NULL);
	ASSERT_EQ_INT(perfmap_refresh(pm), 0);
	perfmap_free(pm);
}

/*
 * A sparse 64 MiB map with two lines, one at each end, and lines cut by the read blocks:
 * what is kept is the entries, not the file (the whole file was held before, 64 MiB).
 */
TEST(sparse_map_keeps_only_its_entries)
{
	char dir[] = "/tmp/ember-pm-XXXXXX", path[64];
	static const char tail[] = "\n5000 10 last\n";
	struct perfmap *pm = NULL;
	int fd, dfd;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(write(fd, "1000 10 first\n", 14), 14);
	/* A line across the first block boundary. */
	ASSERT_EQ_INT(pwrite(fd, "\n3000 10 across\n", 17, (1 << 20) - 8), 17);
	ASSERT_EQ_INT(pwrite(fd, tail, sizeof(tail) - 1, (63 << 20) - 1), (int)sizeof(tail) - 1);
	close(fd);
	dfd = open(dir, O_PATH | O_DIRECTORY);
	ASSERT_EQ_INT(perfmap_open(dfd, "perf-1.map", getuid(), &pm), 0);
	close(dfd);
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x1004), "first");
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x3004), "across");
	ASSERT_EQ_STR(perfmap_lookup(pm, 0x5004), "last");
	ASSERT_TRUE(perfmap_bytes(pm) < 64 << 10);
	perfmap_free(pm);
	unlink(path);
	rmdir(dir);
}
