/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * staircase.c - a CPU workload of known profile: five threads, each spinning in its own
 * thread_funcN, which calls a nested staircase: func_a spins 1 part then calls func_b
 * (2 parts), which calls func_c (3 parts), which calls func_d (4 parts).
 * Self shares per thread: a 10%, b 20%, c 30%, d 40%. Runs for argv[1] seconds.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define UNIT 100000

static volatile int stop;

__attribute__((noinline)) static void spin(long parts)
{
	for (volatile long i = 0; i < parts * UNIT; i++)
		;
}

__attribute__((noinline)) void func_d(void)
{
	spin(4);
}

__attribute__((noinline)) void func_c(void)
{
	spin(3);
	func_d();
}

__attribute__((noinline)) void func_b(void)
{
	spin(2);
	func_c();
}

__attribute__((noinline)) void func_a(void)
{
	spin(1);
	func_b();
}

#define THREAD_FUNC(n)                                                                             \
	__attribute__((noinline)) void *thread_func##n(void *arg)                                  \
	{                                                                                          \
		while (!stop)                                                                      \
			func_a();                                                                  \
		return arg;                                                                        \
	}
THREAD_FUNC(1)
THREAD_FUNC(2)
THREAD_FUNC(3)
THREAD_FUNC(4)
THREAD_FUNC(5)

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { thread_func1, thread_func2, thread_func3, thread_func4,
				   thread_func5 };
	pthread_t t[5];
	int secs = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, fns[i], NULL);
	sleep(secs);
	stop = 1;
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	return 0;
}
