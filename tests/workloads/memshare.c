/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memshare.c - allocations of known byte shares, built without frame pointers (gcc -O2).
 *   memshare SECONDS: every 10 ms, main -> path_X -> alloc_X for each allocator X,
 *     8 KiB per block: alloc_malloc malloc()s 4 blocks (32 KiB), alloc_calloc calloc()s 3
 *     (24 KiB), alloc_realloc realloc(NULL)s a half block then realloc()s it to a whole one,
 *     twice (24 KiB), alloc_new (memshare_new.cc) uses operator new for 2 (16 KiB):
 *     shares 33.3 : 25 : 25 : 16.7. Every block is freed by its path. On SIGUSR1, path_leak ->
 *     alloc_leak malloc()s 1 MiB and keeps it: above the C library's mmap threshold, so
 *     malloc itself calls mmap while its return is probed.
 * noipa keeps each function whole and named (no clones); a store after each call keeps it
 * from being a tail call, so every frame stays on the stack.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memshare.h"

#define BLOCK 8192
#define LEAK (1 << 20)

static void *volatile sink;
static volatile sig_atomic_t leak_asked;

__attribute__((noipa)) void *alloc_malloc(size_t n)
{
	char *p = malloc(n);

	sink = p;
	return p;
}

__attribute__((noipa)) void *alloc_leak(size_t n)
{
	char *p = malloc(n);

	sink = p;
	return p;
}

__attribute__((noipa)) void *alloc_calloc(size_t n)
{
	char *p = calloc(n / 64, 64);

	sink = p;
	return p;
}

__attribute__((noipa)) void *alloc_realloc(size_t n)
{
	char *p = realloc(NULL, n / 2);

	sink = p;
	p = realloc(p, n);
	sink = p;
	return p;
}

__attribute__((noipa)) void path_leak(void)
{
	((char *)alloc_leak(LEAK))[0] = 1;
}

__attribute__((noipa)) void path_malloc(int n)
{
	for (int i = 0; i < n; i++)
		free(alloc_malloc(BLOCK));
}

__attribute__((noipa)) void path_calloc(int n)
{
	for (int i = 0; i < n; i++)
		free(alloc_calloc(BLOCK));
}

__attribute__((noipa)) void path_realloc(int n)
{
	for (int i = 0; i < n; i++)
		free(alloc_realloc(BLOCK));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void ask_leak(int sig)
{
	leak_asked = 1;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 10);

	signal(SIGUSR1, ask_leak);
	while (now() < end) {
		if (leak_asked) {
			leak_asked = 0;
			path_leak();
		}
		path_malloc(4);
		path_calloc(3);
		path_realloc(2);
		path_new(2, BLOCK);
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return 0;
}
