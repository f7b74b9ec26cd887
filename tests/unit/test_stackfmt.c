/* SPDX-License-Identifier: BSD-2-Clause */
/* test_stackfmt.c - bpftrace and SystemTap folding, --merge-recursion and format guessing */
#include <errno.h>

#include "collapse/bpftrace.h"
#include "collapse/guess.h"
#include "collapse/recursion.h"
#include "collapse/stap.h"
#include "harness.h"
#include "textin.h"

enum fmt { BPFTRACE, STAP };

/* Fold text as fmt; the folded output, malloc'ed, or NULL on error. *incomplete as counted. */
static char *fold(enum fmt fmt, const char *text, uint64_t *incomplete)
{
	struct bpftrace_stats bst = { 0 };
	struct stap_stats sst = { 0 };
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = textin_lines(&lr, text, strlen(text));
	char *out = NULL;
	int err = -EINVAL;

	if (f && in)
		err = fmt == BPFTRACE ? bpftrace_fold(&lr, f, &bst) : stap_fold(&lr, f, &sst);
	if (!err)
		out = textin_folded(f);
	*incomplete = fmt == BPFTRACE ? bst.incomplete : sst.incomplete;
	if (in) {
		lines_release(&lr);
		fclose(in);
	}
	folded_free(f);
	return out;
}

/* As stackcollapse-bpftrace.pl, except that the ", " between keys is no frame. */
TEST(bpftrace_keys_root_first)
{
	uint64_t inc;
	char *got = fold(BPFTRACE,
			 "Attaching 1 probe...\n\n"
			 "@[\n    fdget_pos+245\n    ksys_write+40\n, \n"
			 "    0x7f3b7fbf738f\n    0x55df48dfd245\n, java io]: 3\n"
			 "@[\n    schedule+1\n    worker+2\n]: 5\n"
			 "@[\n    schedule+1\n    worker+2\n]: 2\n",
			 &inc);

	ASSERT_EQ_STR(got, "java io;0x55df48dfd245;0x7f3b7fbf738f;ksys_write+40;fdget_pos+245 3\n"
			   "worker+2;schedule+1 7\n");
	ASSERT_EQ_INT(inc, 0);
	free(got);
}

TEST(bpftrace_scalar_keys_named_maps_and_a_cut_entry)
{
	uint64_t inc;
	char *got = fold(BPFTRACE, "@[bash]: 4\n@calls[\n    f+1\n]: 2\n@[\n    g+1\n", &inc);

	ASSERT_EQ_STR(got, "bash 4\nf+1 2\n");
	ASSERT_EQ_INT(inc, 1);
	free(got);
}

/* As stackcollapse-stap.pl: offsets and modules go, the count closes a stack. */
TEST(stap_backtraces)
{
	uint64_t inc;
	char *got = fold(STAP,
			 " 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]\n"
			 " 0xffffffff8101c6a3 : default_idle+0x53/0x1d0 [kernel]\n\t2404\n\n"
			 " 0x00007f1e2c3b4a10 : __libc_read+0x10/0x90 [/usr/lib/libc.so.6]\n"
			 " 0x000055d0c3a01300 : main+0x100/0x200 [/usr/bin/cat]\n\t17\n"
			 " 0x0000 : native_safe_halt+0xb/0x10 [kernel]\n"
			 " 0x0001 : default_idle+0x53/0x1d0 [kernel]\n\t6\n"
			 " 0x0002 : cut+0x1/0x2 [kernel]\n",
			 &inc);

	ASSERT_EQ_STR(got, "default_idle;native_safe_halt 2410\nmain;__libc_read 17\n");
	ASSERT_EQ_INT(inc, 1);
	free(got);
}

TEST(stap_and_bpftrace_empty_input)
{
	uint64_t inc;
	char *a = fold(STAP, "", &inc), *b = fold(BPFTRACE, "", &inc);

	ASSERT_EQ_STR(a, "");
	ASSERT_EQ_STR(b, "");
	free(a);
	free(b);
}

/* As stackcollapse-recursive.pl. */
TEST(merge_recursion_folds_direct_recursion_only)
{
	struct folded *src = folded_new(), *dst = folded_new();
	char *got;

	folded_add(src, "a;b;b;b;c", 9, 2);
	folded_add(src, "a;b;c", 5, 3);
	folded_add(src, "x;x", 3, 1);
	folded_add(src, "a;b;a;b", 7, 4);
	ASSERT_EQ_INT(folded_merge_recursion(dst, src), 0);
	got = textin_folded(dst);
	ASSERT_EQ_STR(got, "a;b;a;b 4\na;b;c 5\nx 1\n");
	free(got);
	folded_free(src);
	folded_free(dst);
}

static enum stack_format guess(const char *s)
{
	return guess_format(s, strlen(s));
}

TEST(guess_tells_every_format)
{
	ASSERT_EQ_INT(guess("# ========\n# cmdline : perf record\n#\n"
			    "app 10 [000] 1.000000: 1 cpu-clock: \n"
			    "\t    55000000a000 leaf+0x1f (/opt/app/bin/app)\n\n"),
		      FORMAT_PERF);
	ASSERT_EQ_INT(guess("Attaching 1 probe...\n@[\n    f+1\n]: 3\n"), FORMAT_BPFTRACE);
	ASSERT_EQ_INT(guess(" 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]\n\t2404\n"),
		      FORMAT_STAP);
	ASSERT_EQ_INT(guess("main;f 3\r\nmain;g 0.5\n"), FORMAT_FOLDED);
	ASSERT_EQ_INT(guess("hello world\nthis is prose\n"), FORMAT_UNKNOWN);
	ASSERT_EQ_INT(guess(""), FORMAT_UNKNOWN);
}
