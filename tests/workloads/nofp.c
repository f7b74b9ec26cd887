/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nofp.c - a known call tree in code without frame pointers (built with plain gcc -O2):
 * the main thread runs main -> nofp_a -> nofp_b -> nofp_leaf (75% of its time) and
 * main -> nofp_a -> nofp_c (25%); a second thread runs nofp_worker -> nofp_leaf2.
 * Each burn calls into the C library through the PLT. Runs for argv[1] seconds (default 30).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;
static char buf_a[4096], buf_b[4096];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Burn about n units of CPU; the memcpy is a call through the PLT into the C library. */
__attribute__((noinline)) static unsigned long burn(unsigned long n)
{
	unsigned long x = sink;

	for (unsigned long i = 0; i < n * 1000; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		if ((i & 1023) == 0)
			memcpy(buf_a, buf_b, 64 + (x & 63));
	}
	return x;
}

/* The callers use what they get back: no tail calls, every frame stays. */
__attribute__((noinline)) unsigned long nofp_leaf(unsigned long n)
{
	return burn(n) + 1;
}

__attribute__((noinline)) unsigned long nofp_leaf2(unsigned long n)
{
	return burn(n) + 2;
}

__attribute__((noinline)) unsigned long nofp_b(unsigned long n)
{
	return nofp_leaf(n) ^ 3;
}

__attribute__((noinline)) unsigned long nofp_c(unsigned long n)
{
	return burn(n) ^ 5;
}

__attribute__((noinline)) unsigned long nofp_a(unsigned long n)
{
	unsigned long x = nofp_b(3 * n);

	return (x + nofp_c(n)) * 7;
}

__attribute__((noinline)) static void *nofp_worker(void *arg)
{
	double end = *(const double *)arg;

	while (now() < end)
		sink += nofp_leaf2(100);
	return NULL;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 30);
	pthread_t t;

	if (pthread_create(&t, NULL, nofp_worker, &end))
		return 1;
	while (now() < end)
		sink += nofp_a(100);
	pthread_join(t, NULL);
	return 0;
}
