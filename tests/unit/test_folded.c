/* SPDX-License-Identifier: BSD-2-Clause */
/* test_folded.c - the folded profile */
#include "collapse/folded.h"
#include "harness.h"

TEST(add_merges_equal_stacks)
{
	struct folded *f = folded_new();

	ASSERT_TRUE(f);
	ASSERT_EQ_INT(folded_add(f, "a;b", 3, 2), 0);
	ASSERT_EQ_INT(folded_add(f, "a;b;c", 5, 1), 0);
	ASSERT_EQ_INT(folded_add(f, "a;b", 3, 5), 0);
	ASSERT_EQ_INT(folded_count(f), 2);
	ASSERT_EQ_INT(folded_total(f), 8);
	folded_free(f);
}

TEST(write_is_sorted_bytewise)
{
	struct folded *f = folded_new();
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	folded_add(f, "b;x", 3, 1);
	folded_add(f, "a;b;c", 5, 3);
	folded_add(f, "a;b", 3, 2);
	ASSERT_EQ_INT(folded_write(f, out), 0);
	fclose(out);
	ASSERT_EQ_STR(buf, "a;b 2\na;b;c 3\nb;x 1\n");
	free(buf);
	folded_free(f);
}

TEST(many_stacks_survive_growth)
{
	struct folded *f = folded_new();
	char s[32];

	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 50000; i++) {
			int n = snprintf(s, sizeof(s), "main;f%d", i);
			ASSERT_EQ_INT(folded_add(f, s, n, 1), 0);
		}
	ASSERT_EQ_INT(folded_count(f), 50000);
	ASSERT_EQ_INT(folded_total(f), 100000);
	const struct folded_entry *e = folded_sorted(f);
	ASSERT_TRUE(e);
	for (size_t i = 0; i < folded_count(f); i++)
		ASSERT_EQ_INT(e[i].weight, 2);
	folded_free(f);
}
