/* SPDX-License-Identifier: BSD-2-Clause */
/* test_unwcache.c - unwind table bookkeeping: rows, table ids, aliases, LRU eviction */
#include <errno.h>
#include <linux/types.h>

#include "bpf/unwind_maps.h"
#include "daemon/collect/unwcache.h"
#include "harness.h"

static uint32_t evicted[16];
static int nevicted;

static void on_evict(void *ctx, const struct unwcache_entry *e)
{
	if (nevicted < 16)
		evicted[nevicted++] = (uint32_t)e->ino;
}

static struct unwcache_entry *add(struct unwcache *c, uint64_t ino, uint32_t nrows, int *err)
{
	struct unwcache_entry t = { .dev = 8, .ino = ino };

	return unwcache_add(c, &t, nrows, err);
}

TEST(rows_are_disjoint_and_found_by_inode)
{
	struct unwcache *c = unwcache_new(100, 4, on_evict, NULL);
	struct unwcache_entry *a, *b;
	int err;

	a = add(c, 1, 30, &err);
	b = add(c, 2, 50, &err);
	ASSERT_TRUE(a && b);
	ASSERT_EQ_INT(a->row_start, 0);
	ASSERT_EQ_INT(b->row_start, 30);
	ASSERT_TRUE(a->table_id != b->table_id);
	ASSERT_TRUE(unwcache_find(c, 8, 2) == b);
	ASSERT_TRUE(unwcache_find(c, 9, 2) == NULL);
	unwcache_free(c);
}

TEST(least_recently_used_goes_first)
{
	struct unwcache *c = unwcache_new(100, 8, on_evict, NULL);
	struct unwcache_entry *a, *b, *d;
	int err;

	nevicted = 0;
	a = add(c, 1, 40, &err);
	b = add(c, 2, 40, &err);
	unwcache_touch(a, 10);
	unwcache_touch(b, 5);
	d = add(c, 3, 40, &err); /* needs b's rows */
	ASSERT_TRUE(d != NULL);
	ASSERT_EQ_INT(nevicted, 1);
	ASSERT_EQ_INT(evicted[0], 2);
	ASSERT_TRUE(unwcache_find(c, 8, 2) == NULL);
	ASSERT_TRUE(unwcache_find(c, 8, 1) != NULL);
	ASSERT_EQ_INT(d->row_start, 40);
	unwcache_free(c);
}

TEST(freed_rows_merge_for_a_big_table)
{
	struct unwcache *c = unwcache_new(90, 8, on_evict, NULL);
	struct unwcache_entry *e;
	struct unwcache_stats st;
	int err;

	nevicted = 0;
	for (uint64_t i = 1; i <= 3; i++)
		unwcache_touch(add(c, i, 30, &err), i);
	e = add(c, 4, 90, &err); /* only once all three are gone and merged */
	ASSERT_TRUE(e != NULL);
	ASSERT_EQ_INT(nevicted, 3);
	ASSERT_EQ_INT(e->row_start, 0);
	unwcache_stats(c, &st);
	ASSERT_EQ_INT(st.tables, 1);
	ASSERT_EQ_INT(st.rows_used, 90);
	ASSERT_EQ_INT(st.evictions, 3);
	unwcache_free(c);
}

TEST(table_ids_run_out_before_rows)
{
	struct unwcache *c = unwcache_new(1000, 2, on_evict, NULL);
	int err;

	nevicted = 0;
	unwcache_touch(add(c, 1, 1, &err), 1);
	unwcache_touch(add(c, 2, 1, &err), 2);
	ASSERT_TRUE(add(c, 3, 1, &err) != NULL);
	ASSERT_EQ_INT(nevicted, 1);
	ASSERT_EQ_INT(evicted[0], 1);
	unwcache_free(c);
}

TEST(too_big_and_tableless)
{
	struct unwcache *c = unwcache_new(10, 2, on_evict, NULL);
	struct unwcache_entry *e;
	int err;

	ASSERT_TRUE(add(c, 1, 11, &err) == NULL);
	ASSERT_EQ_INT(err, -E2BIG);
	e = add(c, 2, 0, &err); /* no CFI: remembered, costs no rows */
	ASSERT_TRUE(e != NULL);
	ASSERT_EQ_INT(e->table_id, UNW_TABLE_NONE);
	ASSERT_TRUE(add(c, 3, 10, &err) != NULL);
	ASSERT_TRUE(unwcache_find(c, 8, 2) == e);
	unwcache_free(c);
}

TEST(build_id_and_alias)
{
	struct unwcache *c = unwcache_new(10, 2, on_evict, NULL);
	struct unwcache_entry t = {
		.dev = 8, .ino = 1, .build_id = { 1, 2, 3 }, .build_id_len = 3
	};
	struct unwcache_entry *e;
	int err;

	e = unwcache_add(c, &t, 5, &err);
	ASSERT_TRUE(unwcache_find_build_id(c, (const uint8_t[]){ 1, 2, 3 }, 3) == e);
	ASSERT_TRUE(unwcache_find_build_id(c, (const uint8_t[]){ 1, 2, 4 }, 3) == NULL);
	ASSERT_TRUE(unwcache_find_build_id(c, NULL, 0) == NULL);
	ASSERT_EQ_INT(unwcache_alias(c, e, 9, 77), 0);
	ASSERT_TRUE(unwcache_find(c, 9, 77) == e);
	nevicted = 0;
	ASSERT_TRUE(add(c, 2, 10, &err) != NULL); /* evicts e and both its names */
	ASSERT_TRUE(unwcache_find(c, 9, 77) == NULL);
	ASSERT_TRUE(unwcache_find(c, 8, 1) == NULL);
	unwcache_free(c);
}

TEST(forget_returns_the_space_silently)
{
	struct unwcache *c = unwcache_new(10, 1, on_evict, NULL);
	struct unwcache_entry *e;
	struct unwcache_stats st;
	int err;

	nevicted = 0;
	e = add(c, 1, 10, &err);
	unwcache_forget(c, e);
	ASSERT_TRUE(unwcache_find(c, 8, 1) == NULL);
	e = add(c, 2, 10, &err);
	ASSERT_TRUE(e != NULL);
	ASSERT_EQ_INT(e->row_start, 0);
	ASSERT_EQ_INT(nevicted, 0);
	unwcache_stats(c, &st);
	ASSERT_EQ_INT(st.evictions, 0);
	unwcache_free(c);
}
