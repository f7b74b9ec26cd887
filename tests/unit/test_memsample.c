/* SPDX-License-Identifier: BSD-2-Clause */
/* test_memsample.c - the exponential gap table and the estimate of sampled bytes */
#include <math.h>
#include <stdlib.h>

#include "daemon/collect/memsample.h"
#include "harness.h"

#define N 4096
#define SHIFT 16

TEST(gap_table_has_mean_one_and_decreases)
{
	static volatile uint32_t t[N];
	double sum = 0;

	memsample_exp_table(t, N, SHIFT);
	for (int i = 0; i < N; i++) {
		sum += t[i];
		if (i)
			ASSERT_TRUE(t[i] <= t[i - 1]);
	}
	ASSERT_TRUE(fabs(sum / N / (1 << SHIFT) - 1.0) < 1e-4);
	ASSERT_TRUE(t[N - 1] < 40);           /* -ln(u) near u = 1 */
	ASSERT_TRUE(t[0] > 9 * (1 << SHIFT)); /* the tail: mean of -ln(u) below 1/4096 */
}

/* Sampling allocations as the BPF program does, the estimate comes back to the bytes. */
TEST(sampled_estimate_is_unbiased)
{
	static volatile uint32_t t[N];
	const uint64_t mean = 512 * 1024;
	const size_t sizes[] = { 64, 8192, 300000, 4 << 20 };

	memsample_exp_table(t, N, SHIFT);
	srandom(7);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t left = 0, truth = 0;
		double est = 0;

		for (long i = 0; i < 2000000 && truth < (4ull << 30); i++) {
			truth += sizes[s];
			if (!left)
				left = (uint64_t)t[random() & (N - 1)] * mean >> SHIFT;
			if (left > sizes[s]) {
				left -= sizes[s];
				continue;
			}
			left = (uint64_t)t[random() & (N - 1)] * mean >> SHIFT;
			est += memsample_unsample(sizes[s], mean);
		}
		ASSERT_TRUE(fabs(est / truth - 1) < 0.05);
	}
}

TEST(exact_mode_and_large_sizes)
{
	ASSERT_TRUE(memsample_unsample(100, 1) == 100);
	ASSERT_TRUE(fabs(memsample_unsample(64ull << 20, 512 * 1024) - (64 << 20)) < 1);
	/* Small allocations weigh about one mean each. */
	ASSERT_TRUE(fabs(memsample_unsample(64, 512 * 1024) - 512 * 1024) < 64);
}
