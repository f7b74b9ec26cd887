/* SPDX-License-Identifier: BSD-2-Clause */
/* fixture_sym.h - run a symbolizer fixture binary and collect the "name address" lines it prints */
#ifndef EMBER_FIXTURE_SYM_H
#define EMBER_FIXTURE_SYM_H

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FX_MAX_SYMS 32

struct fx_sym {
	char name[128];
	uint64_t addr;
};

struct fx_proc {
	pid_t pid;
	FILE *in, *out;
	struct fx_sym syms[FX_MAX_SYMS];
	int nsyms;
};

/* build/fixtures/sym, found from build/tests/<this test>. */
static inline const char *fx_dir(void)
{
	static char dir[1024];
	char exe[1024];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return "build/fixtures/sym";
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(dir, sizeof(dir), "%.900s/../fixtures/sym", exe);
	return dir;
}

static inline void fx_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%.1000s/%.1000s", fx_dir(), name);
}

/* Read "name address" lines up to "ready". Returns 0 or -1. */
static inline int fx_read(struct fx_proc *fp)
{
	char line[512];

	while (fgets(line, sizeof(line), fp->out)) {
		char *sp = strrchr(line, ' ');

		if (!strcmp(line, "ready\n"))
			return 0;
		if (!sp || fp->nsyms >= FX_MAX_SYMS || !strncmp(line, "error", 5))
			return -1;
		*sp = '\0';
		snprintf(fp->syms[fp->nsyms].name, sizeof(fp->syms[0].name), "%.127s", line);
		fp->syms[fp->nsyms++].addr = strtoull(sp + 1, NULL, 16);
	}
	return -1;
}

static inline int fx_spawn(struct fx_proc *fp, const char *bin)
{
	int to[2], from[2];
	char path[2048];

	memset(fp, 0, sizeof(*fp));
	fx_path(path, sizeof(path), bin);
	if (pipe(to) || pipe(from))
		return -1;
	fp->pid = fork();
	if (fp->pid < 0)
		return -1;
	if (fp->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	fp->in = fdopen(to[1], "w");
	fp->out = fdopen(from[0], "r");
	return fx_read(fp);
}

static inline int fx_cmd(struct fx_proc *fp, const char *cmd)
{
	fprintf(fp->in, "%s\n", cmd);
	fflush(fp->in);
	return fx_read(fp);
}

static inline void fx_reap(struct fx_proc *fp)
{
	if (fp->pid > 0) {
		kill(fp->pid, SIGKILL);
		waitpid(fp->pid, NULL, 0);
		fp->pid = 0;
	}
	if (fp->in)
		fclose(fp->in);
	if (fp->out)
		fclose(fp->out);
	fp->in = fp->out = NULL;
}

static inline uint64_t fx_addr(const struct fx_proc *fp, const char *name)
{
	for (int i = 0; i < fp->nsyms; i++)
		if (!strcmp(fp->syms[i].name, name))
			return fp->syms[i].addr;
	return 0;
}

#endif
