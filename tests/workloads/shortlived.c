/* SPDX-License-Identifier: BSD-2-Clause */
/* shortlived.c - start RATE processes per second for SECONDS: shortlived RATE SECONDS PROG [ARG...] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void reap(long *running)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		(*running)--;
}

int main(int argc, char **argv)
{
	double rate = argc > 3 ? atof(argv[1]) : 0, seconds = argc > 3 ? atof(argv[2]) : 0;
	long started = 0, failed = 0, running = 0;
	double start = now_s();
	int nice0 = getpriority(PRIO_PROCESS, 0);

	if (rate <= 0 || seconds <= 0) {
		fprintf(stderr, "usage: shortlived RATE SECONDS PROG [ARG...]\n");
		return 2;
	}
	/* Keep the pace on a loaded host (where allowed); the children run at the usual priority. */
	setpriority(PRIO_PROCESS, 0, nice0 - 10);
	while (now_s() - start < seconds) {
		double next = start + (started + failed + 1) / rate;
		struct timespec ts;
		pid_t pid;

		pid = fork();
		if (pid == 0) {
			setpriority(PRIO_PROCESS, 0, nice0);
			execv(argv[3], argv + 3);
			_exit(127);
		}
		if (pid > 0) {
			started++;
			running++;
		} else {
			failed++;
		}
		reap(&running);
		next -= now_s();
		if (next > 0) {
			ts.tv_sec = (time_t)next;
			ts.tv_nsec = (long)((next - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
	}
	while (running > 0 && wait(NULL) > 0)
		running--;
	printf("%ld started, %ld failed\n", started, failed);
	return failed != 0;
}
