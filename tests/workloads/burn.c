/* SPDX-License-Identifier: BSD-2-Clause */
/* burn.c - fixed CPU work on N threads; prints the wall time it took, in seconds */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long iterations;

__attribute__((noinline)) static unsigned long mix(unsigned long x)
{
	return x * 6364136223846793005ul + 1442695040888963407ul;
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg;

	for (long i = 0; i < iterations; i++)
		x = mix(x);
	return (void *)x;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	struct timespec a, b;
	pthread_t t[64];

	iterations = argc > 2 ? atol(argv[2]) : 1000000000L;
	if (n < 1 || n > 64)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.4f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
