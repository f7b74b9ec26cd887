/* SPDX-License-Identifier: BSD-2-Clause */
/* stack.c - turn a sampled stack into a folded line */
#include <errno.h>
#include <string.h>

#include "daemon/collect/stack.h"

/* The process frame: comm with ';' and control characters made harmless. */
static int add_comm(struct sbuf *sb, enum stack_prefix prefix, const struct stack_sample *s)
{
	size_t n = strnlen(s->comm, 16);
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		unsigned char c = s->comm[i];

		err = sbuf_addch(sb, c == ';' || c < 0x20 || c == 0x7f ? '_' : c);
	}
	if (!err && n == 0)
		err = sbuf_addstr(sb, "[unknown]");
	if (!err && prefix == PREFIX_PID)
		err = sbuf_addf(sb, "-%u", s->pid);
	else if (!err && prefix == PREFIX_TID)
		err = sbuf_addf(sb, "-%u/%u", s->pid, s->tid);
	return err ? err : sbuf_addch(sb, ';');
}

int stack_fold(struct sbuf *sb, struct symbolizer *sym, enum stack_prefix prefix,
	       const struct stack_sample *s)
{
	int err;

	sbuf_setlen(sb, 0);
	err = add_comm(sb, prefix, s);
	if (!err && s->nu == STACK_LOST)
		err = sbuf_addstr(sb, "[lost user stack];");
	else if (!err && s->nu > 0)
		err = symbolizer_append_stack(sym, s->pid, s->uips, s->nu, 0, sb);
	if (err >= 0 && s->nk == STACK_LOST)
		err = sbuf_addstr(sb, "[lost kernel stack]_[k];");
	else if (err >= 0 && s->nk > 0)
		err = symbolizer_append_stack(sym, s->pid, s->kips, s->nk, 1, sb);
	if (err < 0)
		return err;
	sbuf_setlen(sb, sb->len - 1); /* the last ';' */
	return 0;
}

int stack_fold_counted(struct sbuf *sb, struct symbolizer *sym, enum stack_prefix prefix,
		       const struct stack_sample *s, struct window_stats *ws, uint64_t weight)
{
	uint64_t frames0, named0, frames, named;
	int err;

	symbolizer_frame_counts(sym, &frames0, &named0);
	err = stack_fold(sb, sym, prefix, s);
	symbolizer_frame_counts(sym, &frames, &named);
	ws->frames += (frames - frames0) * weight;
	ws->named += (named - named0) * weight;
	if (s->nu == STACK_LOST || s->nk == STACK_LOST)
		ws->lost_stacks += weight;
	return err;
}

int stack_depth(const uint64_t *ips, int max)
{
	int n = 0;

	while (n < max && ips[n])
		n++;
	return n;
}
