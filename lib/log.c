/* SPDX-License-Identifier: BSD-2-Clause */
/* log.c - leveled logging to stderr, with journald priority prefixes under systemd */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>

#include "lib/log.h"

static enum log_level level = LOG_LVL_INFO;
static int journal = -1;

#define LOG_REPEAT_SEC 10

void log_set_level(enum log_level lvl)
{
	level = lvl;
}

enum log_level log_get_level(void)
{
	return level;
}

static void log_line(enum log_level lvl, const char *text)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	static const int prio[] = { 3, 4, 6, 7 }; /* syslog priorities */

	if (journal < 0)
		journal = getenv("JOURNAL_STREAM") != NULL;
	if (journal)
		fprintf(stderr, "<%d>%s\n", prio[lvl], text);
	else
		fprintf(stderr, "emberd: %s: %s\n", names[lvl], text);
}

/* The same line again within LOG_REPEAT_SEC is counted, and the count said once. */
static struct {
	char text[1024];
	enum log_level lvl;
	time_t first;
	unsigned long repeats;
} last;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

static void flush_repeats(void)
{
	char line[96];

	if (!last.repeats)
		return;
	snprintf(line, sizeof(line), "last message repeated %lu time(s)", last.repeats);
	log_line(last.lvl, line);
	last.repeats = 0;
}

/*
 * Print when lvl is within the level (cut at 1023 bytes). The same text within LOG_REPEAT_SEC of
 * its first print is only counted; the count is said before the next line printed, or at exit.
 */
static void log_vmsg(enum log_level lvl, const char *fmt, va_list ap)
{
	struct timespec ts;
	char text[sizeof(last.text)];

	static int flush_at_exit;

	if (lvl > level)
		return;
	if (!flush_at_exit)
		flush_at_exit = !atexit(flush_repeats);
	vsnprintf(text, sizeof(text), fmt, ap);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	pthread_mutex_lock(&last_lock); /* the unwind table thread logs too */
	if (!strcmp(text, last.text) && ts.tv_sec - last.first < LOG_REPEAT_SEC) {
		last.repeats++;
	} else {
		flush_repeats();
		strcpy(last.text, text);
		last.lvl = lvl;
		last.first = ts.tv_sec;
		log_line(lvl, text);
	}
	pthread_mutex_unlock(&last_lock);
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
