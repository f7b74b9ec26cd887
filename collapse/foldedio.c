/* SPDX-License-Identifier: BSD-2-Clause */
/* foldedio.c - parse folded lines ("a;b;c 12", "a;b 3 5") and read folded files in blocks */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/lines.h"
#include "collapse/text.h"

#define MAX_NUMBER_LEN 64

struct count {
	uint64_t whole;
	double frac;
	double value;
};

/* A count as flamegraph.pl reads it: \d+(\.\d*)? in full. Returns 0 or -EINVAL. */
static int parse_count(const char *s, size_t len, struct count *c)
{
	char tmp[MAX_NUMBER_LEN + 2];
	size_t i = 0;
	uint64_t v = 0;

	for (; i < len && text_is_digit(s[i]); i++)
		if (!text_add_digit(&v, s[i]))
			return -EINVAL;
	if (i == 0 || (i < len && s[i] != '.'))
		return -EINVAL;
	c->whole = v;
	c->frac = 0;
	c->value = (double)v;
	if (i == len)
		return 0;
	for (size_t j = i + 1; j < len; j++)
		if (!text_is_digit(s[j]))
			return -EINVAL;
	if (len - i > MAX_NUMBER_LEN)
		return -EINVAL;
	/* the whole part stays exact; only the fraction goes through a double */
	tmp[0] = '0';
	memcpy(tmp + 1, s + i, len - i);
	tmp[len - i + 1] = '\0';
	c->frac = strtod(tmp, NULL);
	if (c->frac >= 1) /* ".99999999999999999999" rounds up */
		c->frac = nextafter(1, 0);
	c->value = (double)v + c->frac;
	return 0;
}

/*
 * Split "stack<space>count": the count follows the last whitespace. Only digits and '.' can
 * make a count, so the scan stops at anything else: a line costs the length of its count, not
 * of its stack. Returns 0 or -EINVAL.
 */
static int split_last(const char *line, size_t len, size_t *stack_len, struct count *c)
{
	size_t w = len;

	while (w > 0 && (text_is_digit(line[w - 1]) || line[w - 1] == '.'))
		w--;
	if (w == 0 || !text_is_space(line[w - 1]) || parse_count(line + w, len - w, c))
		return -EINVAL;
	*stack_len = w - 1;
	return 0;
}

static size_t strip_eol(const char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	return len;
}

/* Both counts exactly, c[0] the last column. Returns the number of counts or -EINVAL. */
static int parse_exact(const char *line, size_t len, size_t *stack_len, struct count c[2])
{
	size_t n;

	len = strip_eol(line, len);
	if (split_last(line, len, &n, &c[0]))
		return -EINVAL;
	*stack_len = n;
	if (split_last(line, n, stack_len, &c[1])) {
		*stack_len = n;
		return 1;
	}
	return 2;
}

int folded_parse_line(const char *line, size_t len, struct folded_line *out)
{
	struct count c[2];
	size_t stack_len;
	int n = parse_exact(line, len, &stack_len, c);

	if (n < 0)
		return n;
	out->stack = line;
	out->stack_len = stack_len;
	out->ncounts = n;
	out->counts[0] = n == 2 ? c[1].value : c[0].value;
	out->counts[1] = n == 2 ? c[0].value : 0;
	return 0;
}

static int add_line(struct folded *f, const char *line, size_t len, bool *ignored)
{
	struct count c[2];
	size_t stack_len;
	int err;

	*ignored = false;
	if (parse_exact(line, len, &stack_len, c) < 0) {
		*ignored = strip_eol(line, len) != 0;
		return 0;
	}
	if (c[0].frac == 0)
		err = folded_add(f, line, stack_len, c[0].whole);
	else
		err = folded_add_entry(
			f, &(struct folded_entry){ line, stack_len, c[0].whole, c[0].frac });
	return err;
}

int folded_read_lines(struct folded *f, struct lines *lr, struct folded_read_stats *st)
{
	struct folded_read_stats s = { 0, 0 };
	const char *line;
	size_t len;
	int err = 0, more = 0;

	while (!err && (more = lines_next(lr, &line, &len)) > 0) {
		bool ignored;

		s.lines++;
		err = add_line(f, line, len, &ignored);
		s.ignored += ignored;
	}
	if (st)
		*st = s;
	return err ? err : more;
}

int folded_read(struct folded *f, FILE *in, struct folded_read_stats *st)
{
	struct lines lr;
	int err = lines_init(&lr, in);

	if (err)
		return err;
	err = folded_read_lines(f, &lr, st);
	lines_release(&lr);
	return err;
}
