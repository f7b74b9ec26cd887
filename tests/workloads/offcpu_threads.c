// SPDX-License-Identifier: BSD-2-Clause
/*
 * offcpu_threads.c - three threads of known off-CPU profile: sleeper_a sleeps in nanosleep
 * 10 ms x N, reader_b blocks in read() on a pipe that writer_b writes every 30 ms, N/3 times,
 * spinner_c spins until both are done. The threads start after DELAY ms, so that a profiler
 * attached meanwhile sees every block. At exit it prints spinner_c's CPU time in
 * microseconds. Usage: offcpu_threads [N=300 [DELAY=0]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int rounds = 300;
static int pipefd[2];
static volatile int done;

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void sleep_a(void)
{
	nap(10);
}

static void *thread_a(void *arg)
{
	prctl(PR_SET_NAME, "sleeper_a");
	for (int i = 0; i < rounds; i++)
		sleep_a();
	return NULL;
}

static void read_b(void)
{
	char c;

	if (read(pipefd[0], &c, 1) != 1)
		exit(1);
}

static void *thread_b(void *arg)
{
	prctl(PR_SET_NAME, "reader_b");
	for (int i = 0; i < rounds / 3; i++)
		read_b();
	return NULL;
}

static void *writer_b(void *arg)
{
	prctl(PR_SET_NAME, "writer_b");
	for (int i = 0; i < rounds / 3; i++) {
		nap(30);
		if (write(pipefd[1], "x", 1) != 1)
			exit(1);
	}
	return NULL;
}

static void spin_c(void)
{
	for (volatile int i = 0; i < 1000000; i++)
		;
}

static void *thread_c(void *arg)
{
	struct timespec cpu;

	prctl(PR_SET_NAME, "spinner_c");
	while (!done)
		spin_c();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	printf("spinner_c cpu_us %lld\n", (long long)cpu.tv_sec * 1000000 + cpu.tv_nsec / 1000);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b, w, c;

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (rounds < 3 || pipe(pipefd)) {
		fprintf(stderr, "usage: offcpu_threads [ROUNDS>=3 [DELAY_MS]]\n");
		return 2;
	}
	if (argc > 2)
		nap(atol(argv[2]));
	pthread_create(&c, NULL, thread_c, NULL);
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_create(&w, NULL, writer_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(w, NULL);
	done = 1;
	pthread_join(c, NULL);
	return 0;
}
