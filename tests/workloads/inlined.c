/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inlined.c - CPU work in functions inlined into one another: outer() holds middle() holds
 * leaf_math(), whatever the optimization level, so `ember collapse perf --inline` has frames
 * to recover from DWARF. Argument: rounds (default 20000). Prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long leaf_math(unsigned long x)
{
	for (int i = 0; i < 100; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

static inline __attribute__((always_inline)) unsigned long middle(unsigned long x)
{
	x = leaf_math(x);
	return x ^ (x >> 7);
}

__attribute__((noinline)) unsigned long outer(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = middle(x + (unsigned long)i);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;

	for (unsigned long i = 0; i < n; i++)
		sink += outer(i);
	printf("%lu\n", sink);
	return 0;
}
