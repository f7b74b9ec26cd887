/* SPDX-License-Identifier: BSD-2-Clause */
/* fgnum.h - numbers printed as flamegraph.pl prints them, without printf where it can (internal) */
#ifndef EMBER_FGNUM_H
#define EMBER_FGNUM_H

#include <stddef.h>

/* "%.<decimals>f" (decimals 0..4), rounding exactly as printf does. Returns the length. */
size_t fgnum_fixed(char *buf, double x, int decimals);
/* The value that fgnum_fixed() prints for x, as a number. */
double fgnum_rounded(double x, int decimals);
/* A number as Perl prints it: "%.15g". */
size_t fgnum_perl(char *buf, double x);
/* "%.0f" with thousands separators: "1,234,567". */
size_t fgnum_commas(char *buf, double x);

#define FGNUM_MAX 48

#endif
