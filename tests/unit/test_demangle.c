/* SPDX-License-Identifier: BSD-2-Clause */
/* test_demangle.c - C++ and Rust (legacy, v0) demangling */
#include <time.h>

#include "symbolize/demangle.h"
#include "tests/unit/harness.h"

static void check(const char *mangled, const char *want)
{
	char *got = demangle(mangled);

	if (!want) {
		ASSERT_TRUE(got == NULL);
		return;
	}
	ASSERT_EQ_STR(got, want);
	free(got);
}

TEST(cplusplus)
{
	check("_ZN5ember5twiceEi", "ember::twice(int)");
	check("_ZNSt6vectorIiSaIiEE9push_backERKi",
	      "std::vector<int, std::allocator<int> >::push_back(int const&)");
	check("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo()");
}

TEST(rust_legacy_and_v0_without_hash)
{
	check("_ZN7mycrate6module8function17h0123456789abcdefE", "mycrate::module::function");
	check("_RNvNtCs1234_7mycrate6module5other", "mycrate::module::other");
	check("_RNvCs1234_7mycrate4main", "mycrate::main");
}

TEST(plain_and_broken_names_are_left_alone)
{
	check("main", NULL);
	check("_Z", NULL);
	check("_ZN5ember", NULL);
	check("_R", NULL);
	ASSERT_EQ_INT(demangle_candidate("malloc"), 0);
	ASSERT_EQ_INT(demangle_candidate("__Z3foov"), 1);
}

/*
 * f(P<A,A>, P<P<A,A>,P<A,A>>, ...): each parameter repeats the last one twice through
 * back-references, so 32 of them (323 bytes) would demangle to about 2^40 bytes. The result
 * must be refused quickly, the name kept as it is.
 */
TEST(exponential_back_references_are_refused)
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char name[1024] = "_Z1f1PI1AS0_E";
	size_t len = strlen(name);
	struct timespec t0, t1;
	char *got;

	for (int i = 1; i < 32; i++) {
		char idx[3] = { i < 36 ? digits[i] : '?', 0, 0 };

		len += (size_t)snprintf(name + len, sizeof(name) - len, "S_IS%s_S%s_E", idx, idx);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = demangle(name);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_TRUE(got == NULL);
	/* Generous for a slow machine: unbounded, this takes hours and terabytes. */
	ASSERT_TRUE(t1.tv_sec - t0.tv_sec < 5);
	/* Small enough still demangles: 8 levels make 3,325 bytes. */
	name[strlen("_Z1f1PI1AS0_E") + 7 * strlen("S_IS1_S1_E")] = '\0';
	got = demangle(name);
	ASSERT_TRUE(got && strlen(got) > 3000 && strlen(got) <= DEMANGLE_MAX);
	free(got);
}
