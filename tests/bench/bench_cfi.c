/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_cfi.c - build a file's unwind table ROUNDS times; print the median build time, MB of CFI
 * per second and the table's size. With -d, print the rows instead ("pc rule off fp fp_off ra_off").
 * Usage: bench_cfi [-d] FILE [ROUNDS [DEBUGFILE]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symbolize/cfi.h"

#define MAX_ROUNDS 101

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void dump(const struct cfi_table *t)
{
	static const char *const rules[] = { "none", "sp", "fp", "plt", "signal", "end" };

	for (size_t i = 0; i < t->nrows; i++) {
		const struct unw_row *r = &t->rows[i];

		printf("%x %s %d %d %d %d\n", r->pc, r->cfa_rule < 6 ? rules[r->cfa_rule] : "?",
		       r->cfa_off, r->fp_rule, r->fp_off, r->ra_off);
	}
}

int main(int argc, char **argv)
{
	int dumping = argc > 1 && !strcmp(argv[1], "-d");
	char **av = argv + dumping, err[256];
	int rounds = argc - dumping > 2 ? atoi(av[2]) : 5, fd, dfd = -1, ret = 0;
	double secs[MAX_ROUNDS];
	struct cfi_table t = { 0 };

	if (argc - dumping < 2 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_cfi [-d] FILE [ROUNDS [DEBUGFILE]]\n");
		return 2;
	}
	fd = open(av[1], O_RDONLY);
	if (argc - dumping > 3)
		dfd = open(av[3], O_RDONLY);
	for (int i = 0; i < rounds && !ret; i++) {
		double t0 = now();

		cfi_table_free(&t);
		ret = cfi_table_build(fd, dfd, 1 << 24, &t, err, sizeof(err));
		secs[i] = now() - t0;
	}
	if (ret) {
		fprintf(stderr, "bench_cfi: '%s': %s (%s)\n", av[1], err, strerror(-ret));
		return 1;
	}
	qsort(secs, (size_t)rounds, sizeof(secs[0]), cmp_double);
	if (dumping)
		dump(&t);
	else
		printf("%s: cfi %zu bytes, %zu rows, table %zu bytes, unsupported %zu, skipped %zu, "
		       "median %.2f ms, %.1f MB/s\n",
		       av[1], t.cfi_bytes, t.nrows, t.nrows * sizeof(struct unw_row), t.unsupported,
		       t.skipped, secs[rounds / 2] * 1e3,
		       (double)t.cfi_bytes / 1e6 / secs[rounds / 2]);
	cfi_table_free(&t);
	close(fd);
	return 0;
}
