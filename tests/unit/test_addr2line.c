/* SPDX-License-Identifier: BSD-2-Clause */
/* test_addr2line.c - inlined frames from DWARF, on the inlined workload (outer > middle > leaf_math) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collapse/addr2line.h"
#include "harness.h"

/* build/workloads/inlined, found from build/tests/<this test>. */
static const char *workload(void)
{
	static char path[1100];
	char exe[1024];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return "build/workloads/inlined";
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(path, sizeof(path), "%s/../workloads/inlined", exe);
	return path;
}

/* The frames at outer+off, reached through the symbol (the address is in no section). */
static const char *at_outer(struct addr2line *a, unsigned off)
{
	const char *mod = workload(), *out;
	char sym[32];
	size_t len;
	int n = snprintf(sym, sizeof(sym), "outer+0x%x", off);

	if (addr2line_frames(a, "ffffffffffff", 12, sym, (size_t)n, mod, strlen(mod), &out, &len))
		return "(error)";
	return out ? out : "(none)";
}

TEST(inlined_frames_come_outermost_first)
{
	struct addr2line *a = addr2line_new(false);
	int chains = 0;

	ASSERT_TRUE(a);
	for (unsigned off = 0; off < 0x40; off++) {
		/* the same unparsed pc with another symbol is another lookup, not a cache hit */
		struct addr2line *one = addr2line_new(false);
		const char *f = at_outer(one, off);

		if (strncmp(f, "outer", 5))
			harness_fail(__FILE__, __LINE__, "outer+0x%x: \"%s\"", off, f);
		chains += !strcmp(f, "outer;middle;leaf_math");
		addr2line_free(one);
	}
	ASSERT_TRUE(chains > 0);
	addr2line_free(a);
}

TEST(context_adds_file_and_line)
{
	struct addr2line *a;
	int found = 0;

	for (unsigned off = 0; off < 0x40 && !found; off++) {
		const char *f;

		a = addr2line_new(true);
		ASSERT_TRUE(a);
		f = at_outer(a, off);
		found = !strncmp(f, "outer:inlined.c:", 16) && strstr(f, ";middle:inlined.c:") &&
			strstr(f, ";leaf_math:inlined.c:");
		addr2line_free(a);
	}
	ASSERT_TRUE(found);
}

TEST(unknown_files_and_addresses_give_nothing)
{
	struct addr2line *a = addr2line_new(false);
	const char *mod = workload(), *out = "x";
	size_t len = 1;

	ASSERT_EQ_INT(addr2line_frames(a, "1234", 4, "f+0x1", 5, "/nonexistent", 12, &out, &len),
		      0);
	ASSERT_TRUE(!out && !len);
	/* in no section, and no "func+0xOFF" to fall back on */
	ASSERT_EQ_INT(
		addr2line_frames(a, "ffffffffffff", 12, "outer", 5, mod, strlen(mod), &out, &len),
		0);
	ASSERT_TRUE(!out);
	ASSERT_EQ_INT(addr2line_frames(a, "zz", 2, "outer+0x1", 9, mod, strlen(mod), &out, &len),
		      0);
	ASSERT_TRUE(!out);
	/* a path with a NUL byte names no file; nor does a known path's prefix (found by fuzzing) */
	ASSERT_EQ_INT(addr2line_frames(a, "1", 1, "f+0x1", 5, "/bin\0x", 6, &out, &len), 0);
	ASSERT_TRUE(!out);
	ASSERT_EQ_INT(addr2line_frames(a, "2", 1, "f+0x1", 5, "/bin\0xyz", 8, &out, &len), 0);
	ASSERT_TRUE(!out);
	addr2line_free(a);
	addr2line_free(NULL);
}

TEST(each_address_is_resolved_once)
{
	struct addr2line *a = addr2line_new(false);
	const char *first = at_outer(a, 0x10), *again = at_outer(a, 0x10);

	ASSERT_TRUE(first == again);
	addr2line_free(a);
}
