// SPDX-License-Identifier: BSD-2-Clause
/*
 * nofp_offcpu.c - threads that block in named functions, built like a distribution builds
 * (gcc -O2, no frame pointers): nap_in_nanosleep() sleeps 10 ms in nanosleep(),
 * read_in_pipe() blocks in read() on a pipe that write_to_pipe() writes every 20 ms,
 * lock_in_mutex() blocks in pthread_mutex_lock() while holder_thread() holds the mutex
 * for 20 ms; N times each. Given GO_FILE, the main thread naps 10 ms at a time in
 * warm_up() until that file exists, and only then starts the threads: a profiler sees the
 * process block, loads its unwind tables, and tells by a whole warm_up() stack that it is
 * ready. At exit it prints the wall time each named function spent blocked, in
 * microseconds: "nap_in_nanosleep us 1001234".
 * Usage: nofp_offcpu [N=100 [GO_FILE]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* Kept whole: not inlined, not cloned, not tail-called (each does work after its call). */
#define NAMED __attribute__((noipa))

static int rounds = 100;
static int pipefd[2], turn[2];
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long long nap_us, read_us, lock_us;
static volatile int warm_ups, writes;

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

NAMED static void nap_in_nanosleep(void)
{
	struct timespec ts = { 0, 10 * 1000000 };
	long long t0 = now_us();

	if (nanosleep(&ts, NULL))
		exit(1);
	nap_us += now_us() - t0;
}

NAMED static void read_in_pipe(void)
{
	long long t0 = now_us();
	char c;

	if (read(pipefd[0], &c, 1) != 1)
		exit(1);
	read_us += now_us() - t0;
}

NAMED static void lock_in_mutex(void)
{
	long long t0 = now_us();

	if (pthread_mutex_lock(&mutex))
		exit(1);
	lock_us += now_us() - t0;
	pthread_mutex_unlock(&mutex);
}

NAMED static void warm_up(void)
{
	struct timespec ts = { 0, 10 * 1000000 };

	if (nanosleep(&ts, NULL))
		exit(1);
	warm_ups++;
}

NAMED static void write_to_pipe(void)
{
	if (write(pipefd[1], "x", 1) != 1)
		exit(1);
	writes++;
}

static void *sleeper_thread(void *arg)
{
	prctl(PR_SET_NAME, "sleeper");
	for (int i = 0; i < rounds; i++)
		nap_in_nanosleep();
	return NULL;
}

static void *reader_thread(void *arg)
{
	prctl(PR_SET_NAME, "reader");
	for (int i = 0; i < rounds; i++)
		read_in_pipe();
	return NULL;
}

static void *writer_thread(void *arg)
{
	prctl(PR_SET_NAME, "writer");
	for (int i = 0; i < rounds; i++) {
		nap(20);
		write_to_pipe();
	}
	return NULL;
}

/* Each round: take the mutex, tell the locker, hold it 20 ms, then wait for its turn back. */
static void *holder_thread(void *arg)
{
	prctl(PR_SET_NAME, "holder");
	for (int i = 0; i < rounds; i++) {
		pthread_mutex_lock(&mutex);
		if (write(turn[1], "h", 1) != 1)
			exit(1);
		nap(20);
		pthread_mutex_unlock(&mutex);
		nap(5); /* the locker takes and drops the mutex meanwhile */
	}
	return NULL;
}

static void *locker_thread(void *arg)
{
	char c;

	prctl(PR_SET_NAME, "locker");
	for (int i = 0; i < rounds; i++) {
		if (read(turn[0], &c, 1) != 1)
			exit(1);
		lock_in_mutex();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { sleeper_thread, reader_thread, writer_thread, holder_thread,
				   locker_thread };
	pthread_t t[5];

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (rounds < 1 || pipe(pipefd) || pipe(turn)) {
		fprintf(stderr, "usage: nofp_offcpu [ROUNDS>=1 [GO_FILE]]\n");
		return 2;
	}
	while (argc > 2 && access(argv[2], F_OK))
		warm_up();
	for (int i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, fns[i], NULL);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	printf("nap_in_nanosleep us %lld\nread_in_pipe us %lld\nlock_in_mutex us %lld\n", nap_us,
	       read_us, lock_us);
	return 0;
}
