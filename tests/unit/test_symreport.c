/* SPDX-License-Identifier: BSD-2-Clause */
/* test_symreport.c - what the operator is told about unnamed frames, and how often */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "daemon/symreport.h"
#include "tests/unit/harness.h"

/* Run symreport_window with stderr captured; returns what was logged. */
static const char *report(struct symreport *r, const struct symbolizer *s, const struct window *w,
			  time_t now)
{
	static char buf[4096];
	char path[] = "/tmp/ember-symreport-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	symreport_window(r, s, w, now);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

TEST(low_named_share_is_logged_then_rate_limited)
{
	struct symbolizer *s = symbolizer_new(NULL);
	struct window *w = window_new(0);
	struct symreport r = { 0 };

	ASSERT_TRUE(s && w);
	w->stats[KIND_ONCPU] = (struct window_stats){ .frames = 1000, .named = 990 };
	ASSERT_EQ_STR(report(&r, s, w, 1000), "");
	w->stats[KIND_ONCPU].named = 400;
	ASSERT_TRUE(strstr(report(&r, s, w, 1060), "oncpu: only 40% of the window's frames"));
	ASSERT_EQ_STR(report(&r, s, w, 1120), "");
	ASSERT_EQ_STR(report(&r, s, w, 1180), "");
	ASSERT_TRUE(strstr(report(&r, s, w, 1060 + SYMREPORT_INTERVAL_SEC), "(3 low window(s)"));
	/* Too few frames to judge. */
	w->stats[KIND_ONCPU] = (struct window_stats){ .frames = 10, .named = 0 };
	ASSERT_EQ_STR(report(&r, s, w, 1060 + 3 * SYMREPORT_INTERVAL_SEC), "");
	window_free(w);
	symbolizer_free(s);
}

TEST(hidden_kernel_symbols_said_once)
{
	char path[] = "/tmp/ember-kallsyms-XXXXXX";
	const char *text = "0000000000000000 T _stext\n";
	struct symbolizer_opts o = { .demangle = 1, .kallsyms = path };
	struct window *w = window_new(0);
	struct symreport r = { 0 };
	struct symbolizer *s;
	struct sbuf sb = { 0 };
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	s = symbolizer_new(&o);
	ASSERT_TRUE(s && w);
	symbolizer_append_stack(s, 1, (uint64_t[]){ 0xffffffff81000150 }, 1, 1, &sb);
	ASSERT_TRUE(strstr(report(&r, s, w, 1000), "kernel frames are written [kernel]+0x"));
	ASSERT_EQ_STR(report(&r, s, w, 1060), "");
	sbuf_release(&sb);
	window_free(w);
	symbolizer_free(s);
	unlink(path);
}

TEST(cache_sizes_and_caps_under_debug)
{
	struct symbolizer *s = symbolizer_new(NULL);
	struct window *w = window_new(0);
	struct symreport r = { 0 };
	enum log_level old = log_get_level();

	ASSERT_TRUE(s && w);
	log_set_level(LOG_LVL_DEBUG);
	ASSERT_TRUE(strstr(report(&r, s, w, 1000), "0 processes (cap 8192)"));
	log_set_level(old);
	window_free(w);
	symbolizer_free(s);
}
