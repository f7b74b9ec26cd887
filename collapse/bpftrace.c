/* SPDX-License-Identifier: BSD-2-Clause */
/* bpftrace.c - fold bpftrace map output into stacks */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "collapse/bpftrace.h"
#include "collapse/stackbuf.h"
#include "collapse/text.h"

struct bt_parser {
	struct folded *out;
	struct bpftrace_stats *st;
	struct stackbuf stack;
	bool in_entry;
};

/* Length of "@name[" at the start of s, or 0. */
static size_t map_open(const char *s, size_t len)
{
	size_t i = 1;

	if (!len || s[0] != '@')
		return 0;
	while (i < len && text_is_word(s[i]))
		i++;
	return i < len && s[i] == '[' ? i + 1 : 0;
}

/* /(.*)\]: (\d+)/ from s: the key up to the last "]: " followed by digits, and the count. */
static bool entry_close(const char *s, size_t len, size_t *key_len, uint64_t *count)
{
	for (size_t i = len; i-- > 0;) {
		size_t d = i + 3;
		uint64_t v = 0;

		if (s[i] != ']' || len - i < 4 || s[i + 1] != ':' || s[i + 2] != ' ' ||
		    !text_is_digit(s[d]))
			continue;
		for (; d < len && text_is_digit(s[d]); d++) {
			if (!text_add_digit(&v, s[d]))
				return false;
		}
		*key_len = i;
		*count = v;
		return true;
	}
	return false;
}

static int emit(struct bt_parser *p, uint64_t count)
{
	const char *stack;
	size_t len;
	int err = stackbuf_join(&p->stack, NULL, 0, &stack, &len);

	if (!err)
		err = folded_add(p->out, stack, len, count);
	stackbuf_reset(&p->stack);
	p->in_entry = false;
	p->st->entries++;
	return err;
}

/* A line outside an entry: "@[" opens one; "@[, comm]: 3" and "@[comm]: 3" are whole. */
static int line_outside(struct bt_parser *p, const char *s, size_t len)
{
	size_t open = map_open(s, len), key_len, rest;
	uint64_t count;
	const char *key;

	if (!open) {
		if (len && !(len >= 10 && !memcmp(s, "Attaching ", 10)))
			p->st->unrecognized++;
		return 0;
	}
	key = s + open;
	rest = len - open;
	if (rest >= 2 && key[0] == ',' && text_is_space(key[1])) {
		key += 2;
		rest -= 2;
	}
	if (entry_close(key, rest, &key_len, &count)) {
		int err = key_len ? stackbuf_push(&p->stack, key, key_len) : 0;

		return err ? err : emit(p, count);
	}
	for (size_t i = 0; i < rest; i++)
		if (!text_is_space(key[i])) {
			p->st->unrecognized++;
			return 0;
		}
	p->in_entry = true; /* "@[" or "@[, ": the first key is a stack, maybe empty */
	return 0;
}

static int line_inside(struct bt_parser *p, const char *s, size_t len)
{
	size_t key_len, i = 0;
	uint64_t count;

	if (len && s[0] == ',')
		i++;
	if (i < len && text_is_space(s[i]))
		i++;
	if (entry_close(s + i, len - i, &key_len, &count)) {
		int err = key_len ? stackbuf_push(&p->stack, s + i, key_len) : 0;

		return err ? err : emit(p, count);
	}
	if (len && s[0] == ',') { /* between two keys */
		while (i < len && text_is_space(s[i]))
			i++;
		if (i == len)
			return 0;
	}
	for (i = 0; i < len && text_is_space(s[i]); i++)
		;
	return stackbuf_push(&p->stack, s + i, len - i);
}

int bpftrace_fold(struct lines *lr, struct folded *out, struct bpftrace_stats *st)
{
	struct bt_parser p = { .out = out, .st = st, .stack = STACKBUF_INIT };
	const char *s;
	size_t len;
	int err = 0, more = 0;

	memset(st, 0, sizeof(*st));
	while (!err && (more = lines_next(lr, &s, &len)) > 0) {
		st->lines++;
		err = p.in_entry ? line_inside(&p, s, len) : line_outside(&p, s, len);
	}
	if (!err)
		err = more;
	st->incomplete = p.in_entry;
	stackbuf_release(&p.stack);
	return err;
}
