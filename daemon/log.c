/* SPDX-License-Identifier: BSD-2-Clause */
/* log.c - leveled logging to stderr, with journald priority prefixes under systemd */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "daemon/log.h"

static enum log_level level = LOG_LVL_INFO;
static int journal = -1;

void log_set_level(enum log_level lvl)
{
	level = lvl;
}

enum log_level log_get_level(void)
{
	return level;
}

static void log_vmsg(enum log_level lvl, const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	static const int prio[] = { 3, 4, 6, 7 }; /* syslog priorities */

	if (lvl > level)
		return;
	if (journal < 0)
		journal = getenv("JOURNAL_STREAM") != NULL;
	if (journal)
		fprintf(stderr, "<%d>", prio[lvl]);
	else
		fprintf(stderr, "emberd: %s: ", names[lvl]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(lvl, fmt, ap);
	va_end(ap);
}

static int libbpf_print(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	char line[1024];
	int n;

	/* Our callers report each failure in one line; libbpf's details are for -v. */
	if (level < LOG_LVL_DEBUG)
		return 0;
	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n <= 0)
		return 0;
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (line[n - 1] == '\n')
		line[n - 1] = '\0';
	log_msg(lvl == LIBBPF_WARN ? LOG_LVL_WARN : LOG_LVL_DEBUG, "%s", line);
	return 0;
}

void log_setup_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}
