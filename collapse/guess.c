/* SPDX-License-Identifier: BSD-2-Clause */
/* guess.c - tell the format of stack input from its first lines */
#include <stdbool.h>
#include <string.h>

#include "collapse/folded.h"
#include "collapse/guess.h"
#include "collapse/text.h"

#define GUESS_LINES 2000

struct votes {
	int perf_frames, perf_events, bpftrace, stap_frames, stap_counts, folded, other;
};

/* "\t ffffffff8103ce3b native_safe_halt+0xb ([kernel.kallsyms])" */
static bool perf_frame(const char *s, size_t len)
{
	size_t i = 0, w;

	while (i < len && text_is_space(s[i]))
		i++;
	for (w = i; i < len && text_is_word(s[i]); i++)
		;
	return w > 0 && i > w && i < len && s[i] == ' ' && s[len - 1] == ')' &&
	       memmem(s + i, len - i, " (", 2);
}

/* "java 25607 [000] 4794564.109216: 1 cycles:" — a comm, a number, ..., "event:" at the end */
static bool perf_event(const char *s, size_t len)
{
	while (len && text_is_space(s[len - 1]))
		len--;
	return len > 2 && !text_is_space(s[0]) && s[len - 1] == ':' && memchr(s, ' ', len) &&
	       memmem(s, len, ": ", 2);
}

/* "0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]" */
static bool stap_frame(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && text_is_space(s[i]))
		i++;
	return len - i > 5 && s[i] == '0' && s[i + 1] == 'x' && memmem(s + i, len - i, " : ", 3);
}

static bool all_digits(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && text_is_space(s[i]))
		i++;
	if (i == len)
		return false;
	for (; i < len; i++)
		if (!text_is_digit(s[i]))
			return false;
	return true;
}

static void vote(struct votes *v, const char *s, size_t len)
{
	struct folded_line fl;

	if (len && s[len - 1] == '\r')
		len--;
	if (len == 0 || s[0] == '#')
		return;
	if (s[0] == '@' && memchr(s, '[', len))
		v->bpftrace++;
	else if (perf_frame(s, len))
		v->perf_frames++;
	else if (stap_frame(s, len))
		v->stap_frames++;
	else if (all_digits(s, len))
		v->stap_counts++;
	else if (perf_event(s, len))
		v->perf_events++;
	else if (!folded_parse_line(s, len, &fl) && fl.stack_len)
		v->folded++;
	else
		v->other++;
}

enum stack_format guess_format(const char *buf, size_t len)
{
	struct votes v = { 0 };
	const char *p = buf, *end = buf + len;

	for (int n = 0; n < GUESS_LINES && p < end; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		vote(&v, p, (size_t)(nl - p));
		p = nl + 1;
	}
	if (v.bpftrace)
		return FORMAT_BPFTRACE;
	if (v.perf_events && v.perf_events + v.perf_frames > v.folded)
		return FORMAT_PERF;
	if (v.stap_frames && v.stap_counts)
		return FORMAT_STAP;
	if (v.folded && v.folded >= v.other)
		return FORMAT_FOLDED;
	return FORMAT_UNKNOWN;
}
