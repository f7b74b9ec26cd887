/* SPDX-License-Identifier: BSD-2-Clause */
/* memsample.h - Poisson sampling by bytes: the kernel's gap table and the estimate of bytes */
#ifndef EMBER_MEMSAMPLE_H
#define EMBER_MEMSAMPLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Fill n entries (fixed point, 1 << shift = 1.0) with the mean of -ln(u) over
 * each 1/n slice of (0, 1]: a uniform index into it draws an exponential gap of
 * mean exactly 1.
 */
void memsample_exp_table(volatile uint32_t *table, size_t n, unsigned int shift);

/*
 * Estimated bytes of an allocation of size bytes, sampled with probability
 * 1 - exp(-size / mean): size divided by that probability (mean <= 1: size).
 */
double memsample_unsample(double size, uint64_t mean);

#endif
