/* SPDX-License-Identifier: BSD-2-Clause */
/* test_merge.c - `ember merge` time arguments */
#include <errno.h>

#include "cli/cli.h"
#include "harness.h"

static time_t local(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = { .tm_year = y - 1900,
			 .tm_mon = mo - 1,
			 .tm_mday = d,
			 .tm_hour = h,
			 .tm_min = mi,
			 .tm_sec = s,
			 .tm_isdst = -1 };

	return mktime(&tm);
}

TEST(absolute_times)
{
	time_t now = local(2026, 12, 3, 7, 30, 15), t;

	ASSERT_EQ_INT(merge_parse_time("2026-12-01 10:05", now, &t), 0);
	ASSERT_EQ_INT(t, local(2026, 12, 1, 10, 5, 0));
	ASSERT_EQ_INT(merge_parse_time("2026-12-01T10:05:30", now, &t), 0);
	ASSERT_EQ_INT(t, local(2026, 12, 1, 10, 5, 30));
	ASSERT_EQ_INT(merge_parse_time("2026-12-01", now, &t), 0);
	ASSERT_EQ_INT(t, local(2026, 12, 1, 0, 0, 0));
	ASSERT_EQ_INT(merge_parse_time("06:59", now, &t), 0);
	ASSERT_EQ_INT(t, local(2026, 12, 3, 6, 59, 0));
	ASSERT_EQ_INT(merge_parse_time("06:59:58", now, &t), 0);
	ASSERT_EQ_INT(t, local(2026, 12, 3, 6, 59, 58));
	ASSERT_EQ_INT(merge_parse_time("@1796234880", now, &t), 0);
	ASSERT_EQ_INT(t, 1796234880);
}

TEST(relative_times)
{
	time_t now = 1796234880, t;

	ASSERT_EQ_INT(merge_parse_time("now", now, &t), 0);
	ASSERT_EQ_INT(t, now);
	ASSERT_EQ_INT(merge_parse_time("-90s", now, &t), 0);
	ASSERT_EQ_INT(t, now - 90);
	ASSERT_EQ_INT(merge_parse_time("-2h", now, &t), 0);
	ASSERT_EQ_INT(t, now - 7200);
	ASSERT_EQ_INT(merge_parse_time("-1d", now, &t), 0);
	ASSERT_EQ_INT(t, now - 86400);
	/* Further back than time_t reaches: an error, never a wrapped-around time. */
	ASSERT_EQ_INT(merge_parse_time("-9223372036854775807d", now, &t), -ERANGE);
	ASSERT_EQ_INT(merge_parse_time("-106751991167301d", now, &t), -ERANGE);
}

TEST(bad_times_are_errors)
{
	static const char *const bad[] = { "",      "yesterday",  "-",        "-5",
					   "-5x",   "-5mm",       "@",        "@12a",
					   "25:00", "2026-13-01", "12:30 pm", "10:05x" };
	time_t t = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (merge_parse_time(bad[i], 1796234880, &t) == 0)
			harness_fail(__FILE__, __LINE__, "'%s' accepted", bad[i]);
	}
	ASSERT_EQ_INT(t, 42);
}
