/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memleak.c - allocation workloads of known profile.
 *   paths SECONDS [KIB]: every 10 ms, path_big allocates 8 blocks of KIB (default 8) KiB
 *     (malloc), path_mid 4 (calloc), path_small 2 (posix_memalign), all freed at once, and
 *     path_leak 1 (malloc) never freed: with 8 KiB blocks 64:32:16:8 KiB per tick, about
 *     62.5, 31.25, 15.6 and 7.8 MiB per 10 s.
 *   bench ITERATIONS [DEPTH [WORK]]: malloc(64..127) + free, then WORK (default 0) steps of
 *     busy work, DEPTH (default 1) calls below main as deeper programs allocate; prints the
 *     seconds taken.
 *   edge SECONDS: once a second, realloc(NULL, n) kept, realloc(p, 0), free(NULL), memory
 *     freed by another thread, a forked child that leaks and exits; exits holding its leaks.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EDGE_BLOCK (256 * 1024)

/* Pointers escape through it, so the compiler cannot elide a malloc/free pair. */
static void *volatile sink;
static size_t block = 8192;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	double d = t - now();

	if (d > 0)
		nanosleep(&(struct timespec){ (time_t)d, (long)((d - (time_t)d) * 1e9) }, NULL);
}

__attribute__((noinline)) void path_big(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(block);

		sink = p;
		free(p);
	}
}

__attribute__((noinline)) void path_mid(int n)
{
	for (int i = 0; i < n; i++)
		free(sink = calloc(block / 64, 64));
}

__attribute__((noinline)) void path_small(int n)
{
	for (int i = 0; i < n; i++) {
		void *p = NULL;

		if (posix_memalign(&p, 64, block) == 0)
			free(sink = p);
	}
}

__attribute__((noinline)) void path_leak(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(block);

		p[0] = 1;
		sink = p; /* never freed */
	}
}

static int run_paths(double secs, size_t kib)
{
	double start = now(), tick = start;

	block = kib * 1024;
	while (now() - start < secs) {
		path_big(8);
		path_mid(4);
		path_small(2);
		path_leak(1);
		tick += 0.01;
		sleep_until(tick);
	}
	return 0;
}

static long bench_work;

__attribute__((noinline)) void bench_alloc(long iters)
{
	for (long i = 0; i < iters; i++) {
		char *p = malloc(64 + (i & 63));

		sink = p;
		free(p);
		for (volatile long w = 0; w < bench_work; w++)
			;
	}
}

__attribute__((noinline)) void edge_realloc_null(void)
{
	char *p = realloc(NULL, EDGE_BLOCK);

	p[0] = 1;
	sink = p; /* kept */
}

__attribute__((noinline)) void edge_realloc_zero(void)
{
	char *p = malloc(EDGE_BLOCK);

	sink = p;
	p = realloc(p, 0); /* frees, glibc returns NULL */
	free(p);
}

__attribute__((noinline)) void edge_free_null(void)
{
	for (int i = 0; i < 100; i++)
		free(NULL);
}

static int handoff[2];

static void *edge_free_thread(void *arg)
{
	void *p;

	while (read(handoff[0], &p, sizeof(p)) == sizeof(p))
		free(p); /* allocated by the main thread */
	return NULL;
}

__attribute__((noinline)) void edge_cross_thread(void)
{
	char *p = malloc(EDGE_BLOCK);

	p[0] = 1;
	if (write(handoff[1], &p, sizeof(p)) != sizeof(p))
		free(p);
}

__attribute__((noinline)) void edge_child_leak(void)
{
	char *p = malloc(EDGE_BLOCK);

	p[0] = 1;
	sink = p;
}

__attribute__((noinline)) void edge_fork(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (int i = 0; i < 4; i++)
			edge_child_leak();
		_exit(0); /* exits holding 4 live allocations */
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

__attribute__((noinline)) void bench_deep(int depth, long iters)
{
	if (depth > 1)
		bench_deep(depth - 1, iters);
	else
		bench_alloc(iters);
	sink = NULL; /* not a tail call */
}

static int run_edge(double secs)
{
	double start = now(), tick = start;
	pthread_t t;

	if (pipe(handoff) || pthread_create(&t, NULL, edge_free_thread, NULL))
		return 1;
	while (now() - start < secs) {
		edge_realloc_null();
		edge_realloc_zero();
		edge_free_null();
		edge_cross_thread();
		edge_fork();
		tick += 1;
		sleep_until(tick);
	}
	close(handoff[1]);
	pthread_join(t, NULL);
	return 0; /* exits with the realloc(NULL, n) blocks still live */
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "paths"))
		return run_paths(atof(argv[2]), argc > 3 ? strtoul(argv[3], NULL, 10) : 8);
	if (argc >= 3 && !strcmp(argv[1], "bench")) {
		double t0 = now();

		bench_work = argc > 4 ? atol(argv[4]) : 0;
		bench_deep(argc > 3 ? atoi(argv[3]) : 1, atol(argv[2]));
		printf("%.3f\n", now() - t0);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "edge"))
		return run_edge(atof(argv[2]));
	fprintf(stderr, "usage: memleak paths SECONDS [SCALE] | bench ITERATIONS | edge SECONDS\n");
	return 2;
}
