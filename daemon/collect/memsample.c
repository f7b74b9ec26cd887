/* SPDX-License-Identifier: BSD-2-Clause */
/* memsample.c - Poisson sampling by bytes: the kernel's gap table and the estimate of bytes */
#include <math.h>

#include "daemon/collect/memsample.h"

void memsample_exp_table(volatile uint32_t *table, size_t n, unsigned int shift)
{
	for (size_t i = 0; i < n; i++) {
		double a = (double)i / n, b = (double)(i + 1) / n;
		/* The integral of -ln(u) is u - u ln(u). */
		double fa = a > 0 ? a - a * log(a) : 0, fb = b - b * log(b);

		table[i] = (uint32_t)((fb - fa) / (b - a) * (1u << shift) + 0.5);
	}
}

double memsample_unsample(double size, uint64_t mean)
{
	if (mean <= 1 || size <= 0)
		return size;
	return size / -expm1(-size / mean);
}
