// SPDX-License-Identifier: BSD-2-Clause
/*
 * pingpong.c - a context-switch-heavy workload: two processes pinned to one CPU pass a byte
 * back and forth over two pipes ROUNDS times; prints the elapsed seconds.
 * Usage: pingpong [ROUNDS=200000 [CPU=0]]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void relay(int in, int out, long rounds, int first)
{
	char c = 'x';

	for (long i = 0; i < rounds; i++) {
		if (first && write(out, &c, 1) != 1)
			exit(1);
		if (read(in, &c, 1) != 1)
			exit(1);
		if (!first && write(out, &c, 1) != 1)
			exit(1);
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 200000;
	int cpu = argc > 2 ? atoi(argv[2]) : 0;
	int ping[2], pong[2];
	struct timespec t0, t1;
	cpu_set_t set;
	pid_t child;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (rounds < 1 || pipe(ping) || pipe(pong) || sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "usage: pingpong [ROUNDS [CPU]]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		relay(ping[0], pong[1], rounds, 0);
		return 0;
	}
	relay(pong[0], ping[1], rounds, 1);
	waitpid(child, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
