/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sbuf.c - the growable buffer and the stack builder */
#include "lib/sbuf.h"
#include "collapse/stackbuf.h"
#include "harness.h"

TEST(sbuf_appends_and_stays_terminated)
{
	struct sbuf sb = SBUF_INIT;

	ASSERT_EQ_INT(sbuf_addstr(&sb, "ab"), 0);
	ASSERT_EQ_INT(sbuf_addch(&sb, ';'), 0);
	ASSERT_EQ_INT(sbuf_add(&sb, "cdef", 2), 0);
	ASSERT_EQ_INT(sbuf_addf(&sb, "_%d", 42), 0);
	ASSERT_EQ_STR(sb.buf, "ab;cd_42");
	ASSERT_EQ_INT(sb.len, 8);
	sbuf_setlen(&sb, 2);
	ASSERT_EQ_STR(sb.buf, "ab");
	ASSERT_EQ_INT(sbuf_grow(&sb, 1000), 0);
	ASSERT_TRUE(sb.cap >= 1003 && sb.len == 2);
	sbuf_release(&sb);
	ASSERT_TRUE(!sb.buf && !sb.len);
	sbuf_release(&sb);
}

TEST(sbuf_addf_longer_than_the_room)
{
	struct sbuf sb = SBUF_INIT;
	char want[600];

	memset(want, 'y', 599);
	want[599] = '\0';
	ASSERT_EQ_INT(sbuf_addf(&sb, "%s", want), 0);
	ASSERT_EQ_STR(sb.buf, want);
	sbuf_release(&sb);
}

TEST(stackbuf_joins_root_first_with_a_prefix)
{
	struct stackbuf sb = STACKBUF_INIT;
	const char *out;
	size_t len, start;

	ASSERT_EQ_INT(stackbuf_push(&sb, "leaf", 4), 0);
	start = sb.text.len;
	sbuf_addstr(&sb.text, "mid");
	ASSERT_EQ_INT(stackbuf_end_frame(&sb, start), 0);
	ASSERT_EQ_INT(stackbuf_push(&sb, "root", 4), 0);
	ASSERT_EQ_INT(stackbuf_join(&sb, "comm", 4, &out, &len), 0);
	ASSERT_EQ_STR(out, "comm;root;mid;leaf");
	ASSERT_EQ_INT(len, 18);
	ASSERT_EQ_INT(stackbuf_join(&sb, NULL, 0, &out, &len), 0);
	ASSERT_EQ_STR(out, "root;mid;leaf");
	/* an empty, non-NULL prefix keeps its empty first frame, as the Perl's join */
	ASSERT_EQ_INT(stackbuf_join(&sb, "", 0, &out, &len), 0);
	ASSERT_EQ_STR(out, ";root;mid;leaf");
	stackbuf_reverse_from(&sb, 1);
	ASSERT_EQ_INT(stackbuf_join(&sb, NULL, 0, &out, &len), 0);
	ASSERT_EQ_STR(out, "mid;root;leaf");
	stackbuf_reset(&sb);
	ASSERT_EQ_INT(stackbuf_join(&sb, "comm", 4, &out, &len), 0);
	ASSERT_EQ_STR(out, "comm");
	stackbuf_release(&sb);
}

TEST(stackbuf_holds_twenty_thousand_frames)
{
	struct stackbuf sb = STACKBUF_INIT;
	const char *out;
	size_t len;

	for (int i = 0; i < 20000; i++)
		ASSERT_EQ_INT(stackbuf_push(&sb, "f", 1), 0);
	ASSERT_EQ_INT(stackbuf_join(&sb, NULL, 0, &out, &len), 0);
	ASSERT_EQ_INT(len, 2 * 20000 - 1);
	stackbuf_release(&sb);
}

TEST(sbuf_add_nothing_to_an_empty_buffer)
{
	struct sbuf sb = SBUF_INIT;
	struct sbuf empty = SBUF_INIT;

	ASSERT_EQ_INT(sbuf_add(&sb, empty.buf, empty.len), 0);
	ASSERT_EQ_STR(sb.buf, "");
	sbuf_release(&sb);
}
