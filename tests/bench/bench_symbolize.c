/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_symbolize.c - name recorded stacks with the daemon's symbolizer, cold then warm.
 * Input (one sample a line): "PID NK NU kernel-ips... user-ips...", leaf first, hex.
 * Usage: bench_symbolize SAMPLES TOTAL. Prints addresses, rates, named share and peak RSS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "symbolize/symbolize.h"

#define BENCH_MAX_DEPTH 256

struct bench_sample {
	uint32_t pid;
	int nk, nu;
	uint64_t *ips; /* nk kernel ips, then nu user ips */
};

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_parse(char *line, struct bench_sample *s)
{
	char *tok = strtok(line, " \n");
	int n = 0;

	if (!tok)
		return -EINVAL;
	s->pid = (uint32_t)strtoul(tok, NULL, 10);
	tok = strtok(NULL, " \n");
	s->nk = tok ? atoi(tok) : -1;
	tok = strtok(NULL, " \n");
	s->nu = tok ? atoi(tok) : -1;
	if (s->nk < 0 || s->nu < 0 || s->nk + s->nu > BENCH_MAX_DEPTH)
		return -EINVAL;
	s->ips = calloc((size_t)(s->nk + s->nu) + 1, sizeof(*s->ips));
	if (!s->ips)
		return -ENOMEM;
	while (n < s->nk + s->nu && (tok = strtok(NULL, " \n")))
		s->ips[n++] = strtoull(tok, NULL, 16);
	return n == s->nk + s->nu ? 0 : -EINVAL;
}

/* Returns the number of samples read, or -errno. */
static long bench_read(const char *path, struct bench_sample **out)
{
	struct bench_sample *v = NULL;
	long n = 0, cap = 0;
	char line[8192];
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			struct bench_sample *nv =
				realloc(v, (size_t)(cap = cap ? cap * 2 : 4096) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		if (n < cap && bench_parse(line, &v[n]) == 0)
			n++;
	}
	fclose(f);
	*out = v;
	return n;
}

/* One pass over every sample; returns the addresses named or asked for. */
static long bench_pass(struct symbolizer *sym, const struct bench_sample *v, long n,
		       struct sbuf *sb)
{
	long addrs = 0;

	for (long i = 0; i < n; i++) {
		sbuf_setlen(sb, 0);
		if (v[i].nu)
			symbolizer_append_stack(sym, v[i].pid, v[i].ips + v[i].nk, v[i].nu, 0, sb);
		if (v[i].nk)
			symbolizer_append_stack(sym, v[i].pid, v[i].ips, v[i].nk, 1, sb);
		addrs += v[i].nk + v[i].nu;
	}
	return addrs;
}

int main(int argc, char **argv)
{
	struct symbolizer_opts o = { .demangle = 1 };
	long total = argc > 2 ? atol(argv[2]) : 1000000, n, cold = 0, warm = 0;
	struct symbolizer_stats st;
	struct bench_sample *v = NULL;
	struct symbolizer *sym;
	struct sbuf sb = { 0 };
	struct rusage ru;
	double t0, t1, t2;

	if (argc < 2 || (n = bench_read(argv[1], &v)) <= 0) {
		fprintf(stderr, "usage: bench_symbolize SAMPLES [TOTAL]: no samples read\n");
		return 2;
	}
	sym = symbolizer_new(&o);
	if (!sym)
		return 1;
	t0 = bench_now();
	cold = bench_pass(sym, v, n, &sb);
	t1 = bench_now();
	while (warm < total)
		warm += bench_pass(sym, v, n, &sb);
	t2 = bench_now();
	symbolizer_get_stats(sym, &st);
	getrusage(RUSAGE_SELF, &ru);
	printf("samples %ld addresses %ld cold %.0f/s warm %ld at %.0f/s named %.1f%% "
	       "cache %" PRIu64 " KiB peak_rss %ld KiB\n",
	       n, cold, (double)cold / (t1 - t0), warm, (double)warm / (t2 - t1),
	       st.frames ? 100.0 * (double)st.named / (double)st.frames : 0.0, st.cache_bytes >> 10,
	       ru.ru_maxrss);
	symbolizer_free(sym);
	sbuf_release(&sb);
	for (long i = 0; i < n; i++)
		free(v[i].ips);
	free(v);
	return 0;
}
