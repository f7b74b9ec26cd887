/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memleak.c - allocation workloads of known profile.
 *   paths SECONDS [SCALE]: every 10 ms, path_big allocates 8 x 8 KiB (malloc), path_mid
 *     4 x 8 KiB (calloc), path_small 2 x 8 KiB (posix_memalign), all freed at once, and
 *     path_leak 1 x 8 KiB (malloc) never freed: 64:32:16:8 KiB per tick, i.e. about
 *     62.5, 31.25, 15.6 and 7.8 MiB per 10 s; SCALE multiplies the counts.
 *   bench ITERATIONS: malloc(64) + free as fast as possible; prints the seconds taken.
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

#define BLOCK 8192
#define EDGE_BLOCK (256 * 1024)

/* Pointers escape through it, so the compiler cannot elide a malloc/free pair. */
static void *volatile sink;

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
		char *p = malloc(BLOCK);

		sink = p;
		free(p);
	}
}

__attribute__((noinline)) void path_mid(int n)
{
	for (int i = 0; i < n; i++)
		free(sink = calloc(BLOCK / 64, 64));
}

__attribute__((noinline)) void path_small(int n)
{
	for (int i = 0; i < n; i++) {
		void *p = NULL;

		if (posix_memalign(&p, 64, BLOCK) == 0)
			free(sink = p);
	}
}

__attribute__((noinline)) void path_leak(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(BLOCK);

		p[0] = 1;
		sink = p; /* never freed */
	}
}

static int run_paths(double secs, int scale)
{
	double start = now(), tick = start;

	while (now() - start < secs) {
		path_big(8 * scale);
		path_mid(4 * scale);
		path_small(2 * scale);
		path_leak(1 * scale);
		tick += 0.01;
		sleep_until(tick);
	}
	return 0;
}

__attribute__((noinline)) void bench_alloc(long iters)
{
	for (long i = 0; i < iters; i++) {
		char *p = malloc(64 + (i & 63));

		sink = p;
		free(p);
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
		return run_paths(atof(argv[2]), argc > 3 ? atoi(argv[3]) : 1);
	if (argc >= 3 && !strcmp(argv[1], "bench")) {
		double t0 = now();

		bench_alloc(atol(argv[2]));
		printf("%.3f\n", now() - t0);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "edge"))
		return run_edge(atof(argv[2]));
	fprintf(stderr, "usage: memleak paths SECONDS [SCALE] | bench ITERATIONS | edge SECONDS\n");
	return 2;
}
