/* SPDX-License-Identifier: BSD-2-Clause */
/* stap.c - fold SystemTap backtraces into stacks */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "collapse/stackbuf.h"
#include "collapse/stap.h"
#include "collapse/text.h"

/* /^\s*(\d+)+$/ */
static bool count_line(const char *s, size_t len, uint64_t *count, int *err)
{
	size_t i = 0;
	uint64_t v = 0;

	while (i < len && text_is_space(s[i]))
		i++;
	if (i == len)
		return false;
	for (size_t j = i; j < len; j++)
		if (!text_is_digit(s[j]))
			return false;
	for (; i < len; i++) {
		if (!text_add_digit(&v, s[i])) {
			*err = -EOVERFLOW;
			return true;
		}
	}
	*count = v;
	return true;
}

/* Leading blanks, the last "+..." and everything up to the last " : " go; "" becomes "-". */
static int push_frame(struct stackbuf *sb, const char *s, size_t len)
{
	const char *plus, *end;

	while (len && text_is_space(*s)) {
		s++;
		len--;
	}
	plus = memrchr(s, '+', len);
	if (plus)
		len = (size_t)(plus - s);
	end = s + len;
	for (const char *p = end; p - s >= 3; p--)
		if (p[-3] == ' ' && p[-2] == ':' && p[-1] == ' ') {
			s = p;
			break;
		}
	len = (size_t)(end - s);
	return len ? stackbuf_push(sb, s, len) : stackbuf_push(sb, "-", 1);
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!text_is_space(s[i]))
			return false;
	return true;
}

int stap_fold(struct lines *lr, struct folded *out, struct stap_stats *st)
{
	struct stackbuf sb = STACKBUF_INIT;
	const char *s, *stack;
	size_t len, slen;
	uint64_t count;
	int err = 0, more = 0;

	memset(st, 0, sizeof(*st));
	while (!err && (more = lines_next(lr, &s, &len)) > 0) {
		st->lines++;
		if (count_line(s, len, &count, &err)) {
			if (!err)
				err = stackbuf_join(&sb, NULL, 0, &stack, &slen);
			if (!err)
				err = folded_add(out, stack, slen, count);
			stackbuf_reset(&sb);
			st->stacks++;
		} else if (!blank(s, len)) {
			err = push_frame(&sb, s, len);
		}
	}
	if (!err)
		err = more;
	st->incomplete = sb.n > 0;
	stackbuf_release(&sb);
	return err;
}
