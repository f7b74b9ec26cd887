/* SPDX-License-Identifier: BSD-2-Clause */
/* test_perfscript.c - `perf script` folding; expected outputs are stackcollapse-perf.pl's */
#include <errno.h>

#include "collapse/perfscript.h"
#include "lib/sbuf.h"
#include "harness.h"
#include "textin.h"

struct perf_case {
	const char *name;
	struct perfscript_opts opts;
	const char *want;
};

static const char perf_input[] =
	"# header line\n"
	"java 4242/4243 [001] 100.000001: 1000 cpu-clock: \n"
	"\t    7f0000001000 Lorg/example/Foo;.bar(Ljava/lang/String;)V+0x10 (/tmp/perf-4242.map)\n"
	"\t    7f0000004000 JavaCalls::call_helper(JavaValue*, methodHandle const&)+0x1a "
	"(/usr/lib/jvm/lib/server/libjvm.so)\n"
	"\tffffffff81000001 nf_hook_slow+0x44 ([nf_conntrack])\n"
	"\n"
	"my app 77/78 [003] 100.000003: 500 cpu-clock: \n"
	"\tffffffff81000004 schedule+0x30 ([kernel.kallsyms])\n"
	"\t    55000000b000 [unknown] (/opt/app/lib/libfoo.so.1)\n"
	"\t    55000000a000 main+0x1f (/opt/app/bin/server (deleted))\n"
	"\n"
	"my app 77/78 [003] 100.000004: 1 page-faults: \n"
	"\t    55000000a000 main+0x1f (/opt/app/bin/server)\n"
	"\n"
	"my app 77/79 [003] 100.000005: 1 cpu-clock: \n"
	"\t    55000000a000 main+0x1f (/opt/app/bin/server (deleted))\n"
	"\n";

static const struct perf_case perf_cases[] = {
	{ "default",
	  {},
	  "java;nf_hook_slow;JavaCalls::call_helper;org/example/Foo:.bar 1000\n"
	  "my_app;main+0x1f  1\n"
	  "my_app;main+0x1f ;[libfoo.so.1];schedule 500\n" },
	{ "--pid",
	  { .pid = 1 },
	  "java-4242;nf_hook_slow;JavaCalls::call_helper;org/example/Foo:.bar 1000\n"
	  "my_app-77;main+0x1f  1\n"
	  "my_app-77;main+0x1f ;[libfoo.so.1];schedule 500\n" },
	{ "--tid",
	  { .tid = 1 },
	  "java-4242/4243;nf_hook_slow;JavaCalls::call_helper;org/example/Foo:.bar 1000\n"
	  "my_app-77/78;main+0x1f ;[libfoo.so.1];schedule 500\n"
	  "my_app-77/79;main+0x1f  1\n" },
	{ "--kernel",
	  { .kernel = 1 },
	  "java;nf_hook_slow_[k];JavaCalls::call_helper;org/example/Foo:.bar 1000\n"
	  "my_app;main+0x1f  1\n"
	  "my_app;main+0x1f ;[libfoo.so.1];schedule_[k] 500\n" },
	{ "--jit",
	  { .jit = 1 },
	  "java;nf_hook_slow;JavaCalls::call_helper;org/example/Foo:.bar_[j] 1000\n"
	  "my_app;main+0x1f  1\n"
	  "my_app;main+0x1f ;[libfoo.so.1];schedule 500\n" },
	{ "--all",
	  { .kernel = 1, .jit = 1 },
	  "java;nf_hook_slow_[k];JavaCalls::call_helper;org/example/Foo:.bar_[j] 1000\n"
	  "my_app;main+0x1f  1\n"
	  "my_app;main+0x1f ;[libfoo.so.1];schedule_[k] 500\n" },
	{ "--addrs",
	  { .addrs = 1 },
	  "java;nf_hook_slow;JavaCalls::call_helper;org/example/Foo:.bar 1000\n"
	  "my_app;main+0x1f  1\n"
	  "my_app;main+0x1f ;[libfoo.so.1 <55000000b000>];schedule 500\n" },
	{ "--event-filter=page-faults", { .event = "page-faults" }, "my_app;main 1\n" },
};

/* Fold text with opts; the folded output, malloc'ed, or NULL on error. */
static char *fold(const char *text, size_t len, const struct perfscript_opts *opts,
		  struct perfscript_stats *st)
{
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = textin_lines(&lr, text, len);
	char *out = NULL;

	memset(st, 0, sizeof(*st));
	if (f && in && perfscript_fold(&lr, opts, f, st) == 0)
		out = textin_folded(f);
	if (in) {
		lines_release(&lr);
		fclose(in);
	}
	folded_free(f);
	return out;
}

TEST(perf_every_option_as_the_perl)
{
	for (size_t i = 0; i < sizeof(perf_cases) / sizeof(perf_cases[0]); i++) {
		struct perfscript_stats st;
		char *got = fold(perf_input, sizeof(perf_input) - 1, &perf_cases[i].opts, &st);

		if (!got || strcmp(got, perf_cases[i].want))
			harness_fail(__FILE__, __LINE__, "%s: got \"%s\"", perf_cases[i].name,
				     got ? got : "(error)");
		free(got);
	}
}

TEST(perf_counts_what_it_skips)
{
	struct perfscript_opts o = { 0 };
	struct perfscript_stats st;
	char *got = fold(perf_input, sizeof(perf_input) - 1, &o, &st);

	ASSERT_TRUE(got);
	ASSERT_EQ_INT(st.records, 3);
	ASSERT_EQ_INT(st.filtered, 1);
	ASSERT_EQ_STR(st.event, "cpu-clock");
	ASSERT_EQ_STR(st.other_event, "page-faults");
	ASSERT_EQ_INT(st.unrecognized, 0);
	ASSERT_EQ_INT(st.incomplete, 0);
	free(got);
}

TEST(perf_srcline)
{
	static const char in[] = "app 10 [000] 1.000000: 1 cpu-clock: \n"
				 "\t    55000000a000 leaf+0x1f (/opt/app/bin/app)\n"
				 "  app.c:12\n"
				 "\t    55000000b000 main+0x2 (/opt/app/bin/app)\n"
				 "  app.c:40\n"
				 "\n";
	struct perfscript_opts o = { .srcline = true };
	struct perfscript_stats st;
	char *got = fold(in, sizeof(in) - 1, &o, &st);

	ASSERT_EQ_STR(got, "app;main:app.c:40;leaf:app.c:12 1\n");
	free(got);
}

/* Bad lines are skipped and counted; a last sample with no blank line after it is dropped, as by
 * the Perl, and counted. */
TEST(perf_malformed_and_truncated)
{
	static const char in[] = "garbage line\n"
				 "app 10 [000] 1.000000: 1 cpu-clock: \n"
				 "\t    55000000a000 leaf+0x1f (/opt/app/bin/app)\n"
				 "\n"
				 "another bad one\n"
				 "app 10 [000] 1.000001: 1 cpu-clock: \n"
				 "\t    55000000a000 leaf+0x1f (/opt/app/bin/app)";
	struct perfscript_opts o = { 0 };
	struct perfscript_stats st;
	char *got = fold(in, sizeof(in) - 1, &o, &st);

	ASSERT_EQ_STR(got, "app;leaf 1\n");
	ASSERT_EQ_INT(st.unrecognized, 2);
	ASSERT_EQ_INT(st.incomplete, 1);
	ASSERT_EQ_INT(st.records, 1);
	free(got);
}

TEST(perf_empty_input)
{
	struct perfscript_opts o = { 0 };
	struct perfscript_stats st;
	char *got = fold("", 0, &o, &st);

	ASSERT_EQ_STR(got, "");
	ASSERT_EQ_INT(st.lines, 0);
	free(got);
}

/* A 20,000-frame stack and a 1 MiB symbol come out whole. */
TEST(perf_deep_stack_and_huge_symbol)
{
	struct sbuf in = SBUF_INIT;
	struct perfscript_opts o = { 0 };
	struct perfscript_stats st;
	char *got;

	ASSERT_EQ_INT(sbuf_addstr(&in, "deep 1 [000] 1.0: 1 cpu-clock: \n"), 0);
	for (int i = 0; i < 20000; i++)
		ASSERT_EQ_INT(sbuf_addstr(&in, "\t 1000 f+0x1 (/bin/deep)\n"), 0);
	ASSERT_EQ_INT(sbuf_addstr(&in, "\t 1000 "), 0);
	for (int i = 0; i < (1 << 20); i++)
		ASSERT_EQ_INT(sbuf_addch(&in, 'S'), 0);
	ASSERT_EQ_INT(sbuf_addstr(&in, "+0x1 (/bin/deep)\n\n"), 0);
	got = fold(in.buf, in.len, &o, &st);
	ASSERT_TRUE(got);
	ASSERT_EQ_INT(strlen(got), strlen("deep") + (1 << 20) + 1 + 20000 * 2 + strlen(" 1\n"));
	ASSERT_TRUE(!strncmp(got, "deep;SSS", 8));
	ASSERT_EQ_STR(got + strlen(got) - 7, ";f;f 1\n");
	free(got);
	sbuf_release(&in);
}

/* NUL bytes and invalid UTF-8 are bytes like any other. */
TEST(perf_nul_and_invalid_utf8_pass_through)
{
	static const char in[] = "a\0b 1 [000] 1.0: 1 cpu-clock: \n"
				 "\t 1000 f\xff\xfe+0x1 (/bin/x)\n"
				 "\n";
	struct perfscript_opts o = { 0 };
	struct perfscript_stats st;
	struct folded *f = folded_new();
	struct lines lr;
	FILE *fin = textin_lines(&lr, in, sizeof(in) - 1);
	size_t it = 0;
	const struct folded_entry *e;

	ASSERT_TRUE(f && fin);
	ASSERT_EQ_INT(perfscript_fold(&lr, &o, f, &st), 0);
	e = folded_next(f, &it);
	ASSERT_TRUE(e);
	ASSERT_EQ_INT(e->len, 7);
	ASSERT_TRUE(!memcmp(e->stack, "a\0b;f\xff\xfe", 7));
	lines_release(&lr);
	fclose(fin);
	folded_free(f);
}
