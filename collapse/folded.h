/* SPDX-License-Identifier: BSD-2-Clause */
/* folded.h - a folded profile: unique stack ("a;b;c") -> weight */
#ifndef EMBER_FOLDED_H
#define EMBER_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct folded;

/*
 * A weight is weight + frac: an exact 64-bit integer part and, only for inputs
 * that have fractional counts (flamegraph.pl accepts them), a part in [0, 1).
 */
struct folded_entry {
	const char *stack; /* frames root first, joined by ';', not NUL-terminated */
	size_t len;
	uint64_t weight;
	double frac;
};

/* One line of a folded file: "stack count" or, as difffolded.pl writes, "stack count1 count2". */
struct folded_line {
	const char *stack; /* points into the parsed line */
	size_t stack_len;
	int ncounts; /* 1 or 2 */
	double counts[2];
};

struct folded_read_stats {
	uint64_t lines;   /* lines read, blank ones included */
	uint64_t ignored; /* malformed lines, skipped */
};

enum folded_order {
	FOLDED_BY_STACK,  /* bytewise, as `sort` in the C locale and the FlameGraph tools */
	FOLDED_BY_WEIGHT, /* heaviest first, ties by stack */
};

/* Keep only stacks that pass every criterion that is set. */
struct folded_filter {
	const char *comm;     /* process name: first frame "comm", "comm-PID" or "comm-PID/TID" */
	long pid;             /* PID in the first frame ("comm-PID[/TID]"); < 0: any */
	const char *frame_re; /* POSIX extended regex some frame must match */
	int invert;           /* keep the stacks that fail instead */
};

struct folded *folded_new(void);
void folded_free(struct folded *f);

/* Add weight to stack (len bytes, no trailing newline). Returns 0, -ENOMEM or -EOVERFLOW. */
int folded_add(struct folded *f, const char *stack, size_t len, uint64_t weight);

/* Add an entry's weight (integer and fractional parts) to the same stack in f. */
int folded_add_entry(struct folded *f, const struct folded_entry *e);

size_t folded_count(const struct folded *f);
/* Iterate in hash order: start with *iter = 0; NULL at the end. Valid until the next add. */
const struct folded_entry *folded_next(const struct folded *f, size_t *iter);
/* The sum of the integer parts of all weights. */
uint64_t folded_total(const struct folded *f);

/* Entries sorted by stack (bytewise), valid until the next add or free. NULL on -ENOMEM. */
const struct folded_entry *folded_sorted(struct folded *f);
const struct folded_entry *folded_sorted_by(struct folded *f, enum folded_order order);

/* Write "stack weight\n" lines in sorted order. Returns 0 or a negative errno. */
int folded_write(struct folded *f, FILE *out);
int folded_write_by(struct folded *f, FILE *out, enum folded_order order);
/* Format one weight as folded files have it ("12", "0.25"); returns the length written. */
int folded_format_weight(char *buf, size_t size, uint64_t weight, double frac);

/*
 * Parse one line (len bytes, a trailing "\n" and "\r" allowed) the way flamegraph.pl does:
 * the count is the last whitespace-separated token and must be digits with an optional
 * fraction; a second count before it makes a differential line. Returns 0 or -EINVAL.
 */
int folded_parse_line(const char *line, size_t len, struct folded_line *out);

/*
 * Add every line of a folded file to f, in blocks: memory grows with the number of unique
 * stacks, not with the input. Differential lines count their last column, as flamegraph.pl
 * draws them. Malformed lines are skipped and counted in st (may be NULL).
 * Returns 0, -EIO, -ENOMEM or -EOVERFLOW.
 */
int folded_read(struct folded *f, FILE *in, struct folded_read_stats *st);
struct lines;
/* The same from a line reader (collapse/lines.h). */
int folded_read_lines(struct folded *f, struct lines *lr, struct folded_read_stats *st);

/* Add to dst the stacks of src that pass flt. Returns 0, -EINVAL (bad regex), -ENOMEM. */
int folded_filter(struct folded *dst, const struct folded *src, const struct folded_filter *flt);

/* Split a process frame "comm[-PID[/TID]]": returns the length of comm, sets *pid or -1. */
size_t folded_split_comm(const char *frame, size_t len, long *pid);

#endif
