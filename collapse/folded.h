/* SPDX-License-Identifier: BSD-2-Clause */
/* folded.h - a folded profile: unique stack ("a;b;c") -> weight */
#ifndef EMBER_FOLDED_H
#define EMBER_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct folded;

struct folded_entry {
	const char *stack; /* frames root first, joined by ';', not NUL-terminated */
	size_t len;
	uint64_t weight;
};

struct folded *folded_new(void);
void folded_free(struct folded *f);

/* Add weight to stack (len bytes, no trailing newline). Returns 0 or -ENOMEM. */
int folded_add(struct folded *f, const char *stack, size_t len, uint64_t weight);

size_t folded_count(const struct folded *f);
uint64_t folded_total(const struct folded *f);

/* Entries sorted by stack (bytewise), valid until the next add or free. NULL on -ENOMEM. */
const struct folded_entry *folded_sorted(struct folded *f);

/* Write "stack weight\n" lines in sorted order. Returns 0 or a negative errno. */
int folded_write(struct folded *f, FILE *out);

#endif
