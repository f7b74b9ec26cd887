/* SPDX-License-Identifier: BSD-2-Clause */
/* recursion.c - collapse direct recursion in folded stacks, as stackcollapse-recursive.pl */
#include <errno.h>
#include <string.h>

#include "collapse/recursion.h"
#include "lib/sbuf.h"

/* Write the stack without repeated adjacent frames into out. Returns 0 or -ENOMEM. */
static int unrecurse(const char *s, size_t len, struct sbuf *out)
{
	const char *last = "", *end = s + len;
	size_t last_len = 0, n = 0;

	sbuf_setlen(out, 0);
	while (end > s && end[-1] == ';') /* split drops trailing empty fields */
		end--;
	for (const char *p = s; p < end;) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t flen = semi ? (size_t)(semi - p) : (size_t)(end - p);

		if (flen != last_len || memcmp(p, last, flen)) {
			if (n++ && sbuf_addch(out, ';'))
				return -ENOMEM;
			if (sbuf_add(out, p, flen))
				return -ENOMEM;
			last = p;
			last_len = flen;
		}
		p += flen + 1;
	}
	return 0;
}

int folded_merge_recursion(struct folded *dst, const struct folded *src)
{
	struct sbuf tmp = SBUF_INIT;
	const struct folded_entry *e;
	size_t iter = 0;
	int err = 0;

	while (!err && (e = folded_next(src, &iter))) {
		struct folded_entry m = *e;

		if (e->len == 0 || (e->len == 1 && e->stack[0] == '0'))
			continue;
		err = unrecurse(e->stack, e->len, &tmp);
		m.stack = tmp.buf ? tmp.buf : "";
		m.len = tmp.len;
		if (!err)
			err = folded_add_entry(dst, &m);
	}
	sbuf_release(&tmp);
	return err;
}
