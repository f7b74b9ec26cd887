/* SPDX-License-Identifier: BSD-2-Clause */
/* spin.c - a capture workload: named threads, recursion, syscalls and JIT code with a perf map */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;
static double seconds = 1.0;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t recurse(int depth)
{
	uint64_t x = 0;

	if (depth == 0) {
		for (int i = 0; i < 20000; i++)
			x += (uint64_t)i * i;
		return x;
	}
	return recurse(depth - 1) + (uint64_t)depth;
}

static void do_syscalls(void)
{
	char buf[64];
	FILE *f = fopen("/dev/null", "w");

	for (int i = 0; i < 200 && f; i++) {
		fwrite(buf, 1, sizeof(buf), f);
		fflush(f);
		getppid();
	}
	if (f)
		fclose(f);
}

/* mov rcx, rdi; 1: dec rcx; jnz 1b; ret */
static const unsigned char loop_code[] = { 0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3 };
static const char *jit_names[] = {
	"LazyCompile:*processRequest /srv/app/server.js:42",
	"Lcom/example/cache/LruCache;.get(Ljava/lang/Object;)Ljava/lang/Object;",
	"Interpreter",
	"Stub:CEntryStub",
	"RegExp:[&<>\"']",
};
#define NJIT (sizeof(jit_names) / sizeof(jit_names[0]))
static void *jit[NJIT];

static void jit_setup(void)
{
	char path[64];
	FILE *map;
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	map = fopen(path, "w");
	for (size_t i = 0; i < NJIT; i++) {
		memcpy(mem + i * 64, loop_code, sizeof(loop_code));
		jit[i] = mem + i * 64;
		if (map && i + 1 < NJIT) /* the last one stays anonymous: [unknown] (//anon) */
			fprintf(map, "%lx 40 %s\n", (unsigned long)(uintptr_t)jit[i], jit_names[i]);
	}
	if (map)
		fclose(map);
}

static void run_jit(void)
{
	for (size_t i = 0; i < NJIT; i++)
		if (jit[i])
			((void (*)(uint64_t))jit[i])(200000);
}

static void *worker(void *arg)
{
	double end = now() + seconds;

	pthread_setname_np(pthread_self(), arg);
	while (now() < end) {
		sink += recurse(12);
		do_syscalls();
		run_jit();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	char *names[2] = { "worker one", "java io" };

	if (argc > 1)
		sscanf(argv[1], "%lf", &seconds);
	jit_setup();
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, names[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
