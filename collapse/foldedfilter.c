/* SPDX-License-Identifier: BSD-2-Clause */
/* foldedfilter.c - keep the stacks of a folded profile by process name, PID or frame regex */
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/sbuf.h"
#include "collapse/text.h"

size_t folded_split_comm(const char *frame, size_t len, long *pid)
{
	size_t i = len, digits_end;
	long v = 0;

	*pid = -1;
	while (i > 0 && text_is_digit(frame[i - 1]))
		i--;
	if (i > 0 && i < len && frame[i - 1] == '/') {
		digits_end = --i;
		while (i > 0 && text_is_digit(frame[i - 1]))
			i--;
	} else {
		digits_end = len;
	}
	if (i == 0 || i == digits_end || frame[i - 1] != '-' || digits_end - i > 9)
		return len;
	for (size_t j = i; j < digits_end; j++)
		v = v * 10 + (frame[j] - '0');
	*pid = v;
	return i - 1;
}

static bool comm_matches(const char *stack, size_t len, const struct folded_filter *flt)
{
	const char *semi = memchr(stack, ';', len);
	size_t flen = semi ? (size_t)(semi - stack) : len;
	long pid;
	size_t clen = folded_split_comm(stack, flen, &pid);

	if (flt->pid >= 0 && pid != flt->pid)
		return false;
	if (!flt->comm)
		return true;
	if (strlen(flt->comm) == clen && !memcmp(stack, flt->comm, clen))
		return true;
	return strlen(flt->comm) == flen && !memcmp(stack, flt->comm, flen);
}

/* Returns 1 if a frame matches, 0 if none, -ENOMEM. */
static int frame_matches(const char *stack, size_t len, const regex_t *re, struct sbuf *tmp)
{
	const char *p = stack, *end = stack + len;

	while (p <= end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t flen = semi ? (size_t)(semi - p) : (size_t)(end - p);

		sbuf_setlen(tmp, 0);
		if (sbuf_add(tmp, p, flen))
			return -ENOMEM;
		if (regexec(re, tmp->buf, 0, NULL, 0) == 0)
			return 1;
		p += flen + 1;
	}
	return 0;
}

/*
 * Add to dst each stack of src whose process matches and, when re is given, one of whose frames
 * matches re; with flt->invert, each stack that fails instead. Returns 0 or -ENOMEM.
 */
static int filter_entries(struct folded *dst, const struct folded *src,
			  const struct folded_filter *flt, const regex_t *re)
{
	struct sbuf tmp = SBUF_INIT;
	const struct folded_entry *e;
	size_t iter = 0;
	int err = 0;

	while ((e = folded_next(src, &iter))) {
		int keep = comm_matches(e->stack, e->len, flt);

		if (keep && re) {
			keep = frame_matches(e->stack, e->len, re, &tmp);
			if (keep < 0) {
				err = keep;
				break;
			}
		}
		if (keep == !flt->invert)
			err = folded_add_entry(dst, e);
		if (err)
			break;
	}
	sbuf_release(&tmp);
	return err;
}

int folded_filter(struct folded *dst, const struct folded *src, const struct folded_filter *flt)
{
	regex_t re;
	int err;

	if (!flt->frame_re)
		return filter_entries(dst, src, flt, NULL);
	if (regcomp(&re, flt->frame_re, REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	err = filter_entries(dst, src, flt, &re);
	regfree(&re);
	return err;
}
