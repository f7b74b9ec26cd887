/* SPDX-License-Identifier: BSD-2-Clause */
/* test_window.c - a window's profiles, and the hot/cold profile built from them */
#include "daemon/collect/window.h"
#include "harness.h"

static uint64_t weight_of(struct folded *f, const char *stack)
{
	const struct folded_entry *e;
	size_t it = 0;

	while ((e = folded_next(f, &it)))
		if (e->len == strlen(stack) && !memcmp(e->stack, stack, e->len))
			return e->weight;
	return 0;
}

static void add(struct window *w, enum profile_kind k, const char *stack, uint64_t weight)
{
	ASSERT_EQ_INT(folded_add(w->profiles[k], stack, strlen(stack), weight), 0);
}

TEST(hotcold_joins_samples_as_us_and_marks_cold_frames)
{
	struct window *w = window_new(0);
	struct folded *hc;

	ASSERT_TRUE(w != NULL);
	add(w, KIND_ONCPU, "app;main;spin", 3);
	add(w, KIND_ONCPU, "app;main;work_[k]", 1);
	add(w, KIND_OFFCPU, "app;main;read;vfs_read_[k]", 2500000);
	add(w, KIND_OFFCPU, "app;wait;--;write;writer", 7);
	ASSERT_EQ_INT(window_hotcold(w, 49), 0);
	hc = w->profiles[KIND_HOTCOLD];
	ASSERT_EQ_INT(folded_count(hc), 4);
	/* 1e6 / 49 = 20408.16 us per sample, rounded once per stack */
	ASSERT_EQ_INT(weight_of(hc, "app;main;spin"), 61224);
	ASSERT_EQ_INT(weight_of(hc, "app;main;work_[k]"), 20408);
	ASSERT_EQ_INT(weight_of(hc, "app_[o];main_[o];read_[o];vfs_read_[k]_[o]"), 2500000);
	ASSERT_EQ_INT(weight_of(hc, "app_[o];wait_[o];--_[o];write_[o];writer_[o]"), 7);
	window_free(w);
}

TEST(hotcold_is_rebuilt_not_added_twice)
{
	struct window *w = window_new(0);

	ASSERT_TRUE(w != NULL);
	add(w, KIND_OFFCPU, "a;b", 10);
	ASSERT_EQ_INT(window_hotcold(w, 99), 0);
	add(w, KIND_OFFCPU, "a;b", 5);
	ASSERT_EQ_INT(window_hotcold(w, 99), 0);
	ASSERT_EQ_INT(folded_total(w->profiles[KIND_HOTCOLD]), 15);
	ASSERT_TRUE(window_hotcold(w, 0) < 0);
	ASSERT_EQ_INT(folded_total(w->profiles[KIND_HOTCOLD]), 15);
	window_free(w);
}
