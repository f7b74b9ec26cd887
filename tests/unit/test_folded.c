/* SPDX-License-Identifier: BSD-2-Clause */
/* test_folded.c - the folded profile */
#include <errno.h>

#include "collapse/folded.h"
#include "harness.h"
#include "textin.h"

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

TEST(fractional_weights_add_up_exactly)
{
	struct folded *f = folded_new();
	char buf[32];
	char *got;

	static const char text[] = "a 0.25\na 1.5\nb 3\na -1\n";
	struct folded_read_stats st = { 0 };
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");

	ASSERT_EQ_INT(folded_read(f, in, &st), 0);
	fclose(in);
	ASSERT_EQ_INT(st.ignored, 1); /* a negative weight is no weight */
	ASSERT_EQ_INT(folded_total(f), 4);
	got = textin_folded(f);
	ASSERT_EQ_STR(got, "a 1.75\nb 3\n");
	free(got);
	ASSERT_EQ_INT(folded_format_weight(buf, sizeof(buf), 12, 0), 2);
	ASSERT_EQ_STR(buf, "12");
	folded_format_weight(buf, sizeof(buf), 0, 0.5);
	ASSERT_EQ_STR(buf, "0.5");
	folded_free(f);
}

TEST(a_weight_past_64_bits_is_refused)
{
	struct folded *f = folded_new();

	ASSERT_EQ_INT(folded_add(f, "a", 1, UINT64_MAX), 0);
	ASSERT_EQ_INT(folded_add(f, "a", 1, 1), -EOVERFLOW);
	ASSERT_EQ_INT(folded_total(f), UINT64_MAX);
	folded_free(f);
}

TEST(parse_line_as_flamegraph_pl)
{
	struct folded_line l;

	ASSERT_EQ_INT(folded_parse_line("a;b c 12\r\n", 10, &l), 0);
	ASSERT_TRUE(l.stack_len == 5 && !memcmp(l.stack, "a;b c", 5));
	ASSERT_EQ_INT(l.ncounts, 1);
	ASSERT_NEAR(l.counts[0], 12, 0);
	ASSERT_EQ_INT(folded_parse_line("a;b 3 0.5", 9, &l), 0);
	ASSERT_EQ_INT(l.ncounts, 2);
	ASSERT_NEAR(l.counts[0], 3, 0); /* difffolded.pl's columns in order */
	ASSERT_NEAR(l.counts[1], 0.5, 0);
	ASSERT_EQ_INT(folded_parse_line("a;b", 3, &l), -EINVAL);
	ASSERT_EQ_INT(folded_parse_line("a;b -3", 6, &l), -EINVAL);
	ASSERT_EQ_INT(folded_parse_line("a;b 1e3", 7, &l), -EINVAL);
	ASSERT_EQ_INT(folded_parse_line("", 0, &l), -EINVAL);
}

/* Bad lines are counted, blank ones not; CRLF and a missing last newline are fine. */
TEST(read_skips_and_counts_malformed_lines)
{
	static const char text[] = "a;b 2\r\n\nnot folded\na;b 3\nc 0.5\nd -1\ne 7";
	struct folded *f = folded_new();
	struct folded_read_stats st;
	FILE *in = textin_open(text, sizeof(text) - 1);
	char *got;

	ASSERT_EQ_INT(folded_read(f, in, &st), 0);
	fclose(in);
	ASSERT_EQ_INT(st.lines, 7);
	ASSERT_EQ_INT(st.ignored, 2);
	got = textin_folded(f);
	ASSERT_EQ_STR(got, "a;b 5\nc 0.5\ne 7\n");
	free(got);
	folded_free(f);
}

TEST(read_empty_input)
{
	struct folded *f = folded_new();
	struct folded_read_stats st;
	FILE *in = textin_open("", 0);

	ASSERT_EQ_INT(folded_read(f, in, &st), 0);
	fclose(in);
	ASSERT_EQ_INT(st.lines, 0);
	ASSERT_EQ_INT(folded_count(f), 0);
	folded_free(f);
}

TEST(add_entry_sums_and_next_visits_every_entry)
{
	struct folded *a = folded_new(), *b = folded_new();
	const struct folded_entry *e;
	size_t it = 0, n = 0;
	uint64_t sum = 0;
	double frac = 0;

	folded_add(a, "x", 1, 1);
	folded_add(b, "x", 1, 2);
	ASSERT_EQ_INT(
		folded_add_entry(b, &(struct folded_entry){ .stack = "y", .len = 1, .frac = 0.5 }),
		0);
	while ((e = folded_next(b, &it)))
		ASSERT_EQ_INT(folded_add_entry(a, e), 0);
	it = 0;
	while ((e = folded_next(a, &it))) {
		n++;
		sum += e->weight;
		frac += e->frac;
	}
	ASSERT_EQ_INT(n, 2);
	ASSERT_EQ_INT(sum, 3);
	ASSERT_NEAR(frac, 0.5, 1e-12);
	ASSERT_EQ_INT(folded_add_entry(b, folded_sorted(a)), 0); /* "x" 3 */
	ASSERT_EQ_INT(folded_total(b), 5);
	folded_free(a);
	folded_free(b);
}

TEST(sort_by_weight_then_stack)
{
	struct folded *f = folded_new();
	const struct folded_entry *e;

	folded_add(f, "b", 1, 5);
	folded_add(f, "a", 1, 5);
	folded_add(f, "c", 1, 9);
	e = folded_sorted_by(f, FOLDED_BY_WEIGHT);
	ASSERT_TRUE(e);
	ASSERT_TRUE(e[0].stack[0] == 'c' && e[1].stack[0] == 'a' && e[2].stack[0] == 'b');
	folded_free(f);
}

TEST(split_comm_pid_tid)
{
	long pid;

	ASSERT_EQ_INT(folded_split_comm("java-42/43", 10, &pid), 4);
	ASSERT_EQ_INT(pid, 42);
	ASSERT_EQ_INT(folded_split_comm("my-app-7", 8, &pid), 6);
	ASSERT_EQ_INT(pid, 7);
	ASSERT_EQ_INT(folded_split_comm("kworker/0:1", 11, &pid), 11);
	ASSERT_EQ_INT(pid, -1);
	ASSERT_EQ_INT(folded_split_comm("-5", 2, &pid), 0);
	ASSERT_EQ_INT(pid, 5);
}

static char *filtered(struct folded *src, struct folded_filter flt, int *err)
{
	struct folded *dst = folded_new();
	char *out;

	*err = folded_filter(dst, src, &flt);
	out = textin_folded(dst);
	folded_free(dst);
	return out;
}

TEST(filter_by_comm_pid_and_frame)
{
	struct folded *f = folded_new();
	char *got;
	int err;

	folded_add(f, "java-42/43;main;gc", 18, 1);
	folded_add(f, "javac-7;main;parse", 18, 2);
	folded_add(f, "java-9;run", 10, 4);
	got = filtered(f, (struct folded_filter){ .comm = "java", .pid = -1 }, &err);
	ASSERT_EQ_STR(got, "java-42/43;main;gc 1\njava-9;run 4\n");
	free(got);
	got = filtered(f, (struct folded_filter){ .pid = 7 }, &err);
	ASSERT_EQ_STR(got, "javac-7;main;parse 2\n");
	free(got);
	got = filtered(f, (struct folded_filter){ .pid = -1, .frame_re = "^ma", .invert = 1 },
		       &err);
	ASSERT_EQ_STR(got, "java-9;run 4\n");
	free(got);
	got = filtered(f, (struct folded_filter){ .pid = -1, .frame_re = "(" }, &err);
	ASSERT_EQ_INT(err, -EINVAL);
	free(got);
	folded_free(f);
}

/* Counts up to 2^64 - 1 are exact, the whole part of a fractional one too; past that, malformed. */
TEST(counts_at_the_64_bit_edge)
{
	static const char text[] = "a 18446744073709551615\n"
				   "b 18446744073709551616\n"
				   "c 18446744073709551614.5\n";
	struct folded *a = folded_new(), *c = folded_new();
	struct folded_read_stats st;
	FILE *in = textin_open(text, 23);
	const struct folded_entry *e;

	ASSERT_EQ_INT(folded_read(a, in, &st), 0);
	fclose(in);
	ASSERT_EQ_INT(st.ignored, 0);
	ASSERT_TRUE(folded_total(a) == UINT64_MAX);
	in = textin_open(text + 23, sizeof(text) - 1 - 23);
	ASSERT_EQ_INT(folded_read(c, in, &st), 0);
	fclose(in);
	ASSERT_EQ_INT(st.ignored, 1);
	e = folded_sorted(c);
	ASSERT_TRUE(e && e[0].stack[0] == 'c' && e[0].weight == UINT64_MAX - 1);
	ASSERT_NEAR(e[0].frac, 0.5, 0);
	folded_free(a);
	folded_free(c);
}

TEST(write_by_weight_and_read_lines)
{
	static const char text[] = "a 1\nb 3\nc 2\n";
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = textin_open(text, sizeof(text) - 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ASSERT_TRUE(in && out && !lines_init(&lr, in));
	ASSERT_EQ_INT(folded_read_lines(f, &lr, NULL), 0);
	lines_release(&lr);
	fclose(in);
	ASSERT_EQ_INT(folded_write_by(f, out, FOLDED_BY_WEIGHT), 0);
	fclose(out);
	ASSERT_EQ_STR(buf, "b 3\nc 2\na 1\n");
	free(buf);
	folded_free(f);
}
