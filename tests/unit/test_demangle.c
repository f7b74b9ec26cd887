/* SPDX-License-Identifier: BSD-2-Clause */
/* test_demangle.c - C++ and Rust (legacy, v0) demangling */
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
