/* SPDX-License-Identifier: BSD-2-Clause */
/* test_perfmap.c - parsing perf-PID.map text: overrides, bounds, garbage */
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
