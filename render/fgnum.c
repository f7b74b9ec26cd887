/* SPDX-License-Identifier: BSD-2-Clause */
/* fgnum.c - numbers printed as flamegraph.pl prints them, without printf where it can */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/fgnum.h"

static const double scales[] = { 1, 10, 100, 1000, 10000 };

static const char pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v, two at a time from the right. */
static size_t put_uint(char *buf, uint64_t v)
{
	size_t n = 1;
	char *p;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	for (p = buf + n; v >= 100; v /= 100)
		memcpy(p -= 2, pairs + v % 100 * 2, 2);
	if (v >= 10)
		memcpy(p - 2, pairs + v * 2, 2);
	else
		p[-1] = (char)('0' + v);
	return n;
}

/* Whether x scaled to s, rounded to r, is surely what printf prints: not near a tie, not huge. */
static int plain_rounding(double x, double s, double r)
{
	return fabs(x) < 1e12 && !(fabs(fabs(s - r) - 0.5) < 1e-6) && !(r == 0 && signbit(x));
}

double fgnum_rounded(double x, int decimals)
{
	double s = x * scales[decimals], r = nearbyint(s);
	char b[FGNUM_MAX];

	if (plain_rounding(x, s, r))
		return r / scales[decimals];
	fgnum_fixed(b, x, decimals);
	return strtod(b, NULL);
}

size_t fgnum_fixed(char *buf, double x, int decimals)
{
	double s = x * scales[decimals], r = nearbyint(s);
	uint64_t v, scale = (uint64_t)scales[decimals];
	size_t n = 0;

	/* near a tie, or too big: let printf round the exact binary value */
	if (!plain_rounding(x, s, r)) {
		int k = snprintf(buf, FGNUM_MAX, "%.*f", decimals, x);

		return k < FGNUM_MAX ? (size_t)k : FGNUM_MAX - 1;
	}
	if (r < 0) {
		buf[n++] = '-';
		r = -r;
	}
	v = (uint64_t)r;
	n += put_uint(buf + n, v / scale);
	if (decimals) {
		uint64_t frac = v % scale;

		buf[n++] = '.';
		for (int i = decimals - 1; i >= 0; i--) {
			buf[n + (size_t)i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		n += (size_t)decimals;
	}
	buf[n] = '\0';
	return n;
}

size_t fgnum_perl(char *buf, double x)
{
	if (x == floor(x) && fabs(x) < 1e15) {
		size_t n = 0;

		if (x < 0) {
			buf[n++] = '-';
			x = -x;
		}
		n += put_uint(buf + n, (uint64_t)x);
		buf[n] = '\0';
		return n;
	}
	if (x * 10 == floor(x * 10) && fabs(x) < 1e13) /* one decimal, as frame centres have */
		return fgnum_fixed(buf, x, 1);
	int k = snprintf(buf, FGNUM_MAX, "%.15g", x);

	return k < FGNUM_MAX ? (size_t)k : FGNUM_MAX - 1;
}

size_t fgnum_commas(char *buf, double x)
{
	char digits[FGNUM_MAX];
	size_t n = fgnum_fixed(digits, x, 0), out = 0, start = 0, ndig;

	if (digits[0] == '-' || digits[0] == '+')
		buf[out++] = digits[start++];
	ndig = n - start;
	if (ndig > 30) { /* inf, nan or huge: as printed */
		memcpy(buf, digits, n + 1);
		return n;
	}
	for (size_t i = 0; i < ndig; i++) {
		if (i && (ndig - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[start + i];
	}
	buf[out] = '\0';
	return out;
}
