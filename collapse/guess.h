/* SPDX-License-Identifier: BSD-2-Clause */
/* guess.h - tell the format of stack input from its first lines, as inferno's collapse-guess */
#ifndef EMBER_GUESS_H
#define EMBER_GUESS_H

#include <stddef.h>

enum stack_format {
	FORMAT_UNKNOWN,
	FORMAT_PERF,
	FORMAT_BPFTRACE,
	FORMAT_STAP,
	FORMAT_FOLDED,
};

/* The format of the input that starts with buf, from its first lines. */
enum stack_format guess_format(const char *buf, size_t len);

#endif
