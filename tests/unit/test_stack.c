/* SPDX-License-Identifier: BSD-2-Clause */
/* test_stack.c - folding a sampled stack into one line */
#include <unistd.h>

#include "daemon/collect/stack.h"
#include "harness.h"

void stack_test_leaf(void);
void stack_test_root(void);

__attribute__((noinline)) void stack_test_leaf(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void stack_test_root(void)
{
	stack_test_leaf();
	__asm__ volatile("" ::: "memory");
}

static struct symbolizer *sym(void)
{
	struct symbolizer_opts o = { .demangle = 1 };
	struct symbolizer *s = symbolizer_new(&o);

	ASSERT_TRUE(s);
	return s;
}

TEST(comm_and_user_frames_root_first)
{
	uint64_t ips[] = { (uint64_t)stack_test_leaf, (uint64_t)stack_test_root + 1 };
	struct stack_sample s = {
		.pid = getpid(), .tid = getpid(), .comm = "app", .uips = ips, .nu = 2
	};
	struct sbuf sb = SBUF_INIT;
	struct symbolizer *y = sym();

	ASSERT_EQ_INT(stack_fold(&sb, y, PREFIX_COMM, &s), 0);
	ASSERT_EQ_STR(sb.buf, "app;stack_test_root;stack_test_leaf");
	sbuf_release(&sb);
	symbolizer_free(y);
}

TEST(prefix_pid_tid_and_hostile_comm)
{
	struct stack_sample s = { .pid = 12, .tid = 34, .comm = "a;b\nc d" };
	struct sbuf sb = SBUF_INIT;
	struct symbolizer *y = sym();

	ASSERT_EQ_INT(stack_fold(&sb, y, PREFIX_TID, &s), 0);
	ASSERT_EQ_STR(sb.buf, "a_b_c d-12/34");
	ASSERT_EQ_INT(stack_fold(&sb, y, PREFIX_PID, &s), 0);
	ASSERT_EQ_STR(sb.buf, "a_b_c d-12");
	sbuf_release(&sb);
	symbolizer_free(y);
}

TEST(comm_is_bounded_to_16_bytes)
{
	char comm[16];
	struct stack_sample s = { .pid = 1, .tid = 1, .comm = comm };
	struct sbuf sb = SBUF_INIT;
	struct symbolizer *y = sym();

	memset(comm, 'x', sizeof(comm)); /* no NUL */
	ASSERT_EQ_INT(stack_fold(&sb, y, PREFIX_COMM, &s), 0);
	ASSERT_EQ_INT(sb.len, 16);
	sbuf_release(&sb);
	symbolizer_free(y);
}

TEST(lost_stacks_are_visible)
{
	struct stack_sample s = {
		.pid = 1, .tid = 1, .comm = "app", .nu = STACK_LOST, .nk = STACK_LOST
	};
	struct sbuf sb = SBUF_INIT;
	struct symbolizer *y = sym();
	struct window_stats ws = { 0 };

	ASSERT_EQ_INT(stack_fold(&sb, y, PREFIX_COMM, &s), 0);
	ASSERT_EQ_STR(sb.buf, "app;[lost user stack];[lost kernel stack]_[k]");
	/* and counted, weighted like the profile: 7 samples on a lost stack, then a whole one */
	ASSERT_EQ_INT(stack_fold_counted(&sb, y, PREFIX_COMM, &s, &ws, 7), 0);
	s.nu = 0;
	s.nk = 0;
	ASSERT_EQ_INT(stack_fold_counted(&sb, y, PREFIX_COMM, &s, &ws, 5), 0);
	ASSERT_EQ_INT(ws.lost_stacks, 7);
	sbuf_release(&sb);
	symbolizer_free(y);
}
