/* SPDX-License-Identifier: BSD-2-Clause */
/* shortjob.c - a short-lived process: spins MS milliseconds (wall) in known functions, then exits */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static unsigned long shortjob_mix(unsigned long x)
{
	for (int i = 0; i < 4096; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

/*
 * The profile of each process: shortjob_stage_a and shortjob_stage_b, half and
 * half, in slices small enough that preemption does not favour either.
 */
__attribute__((noinline)) static void shortjob_stage_a(void)
{
	sink = shortjob_mix(sink);
}

__attribute__((noinline)) static void shortjob_stage_b(void)
{
	sink = shortjob_mix(sink + 1);
}

__attribute__((noinline)) static void shortjob_run(double ms)
{
	double until = now_ms() + ms;

	while (now_ms() < until) {
		shortjob_stage_a();
		shortjob_stage_b();
	}
}

int main(int argc, char **argv)
{
	shortjob_run(argc > 1 ? atof(argv[1]) : 50);
	return 0;
}
