/* SPDX-License-Identifier: BSD-2-Clause */
/* perfscript.c - fold `perf script` output exactly as stackcollapse-perf.pl does */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/addr2line.h"
#include "collapse/perfscript.h"
#include "lib/sbuf.h"
#include "collapse/stackbuf.h"
#include "collapse/text.h"

struct span {
	const char *p;
	size_t len;
};

struct parser {
	const struct perfscript_opts *o;
	struct perfscript_stats *st;
	struct lines *lr;
	struct folded *out;
	struct sbuf event; /* the event kept; empty until the first one when defaulted */
	struct sbuf pname; /* process frame of the current sample; len 0: none */
	uint64_t period;
	struct stackbuf stack; /* the current sample's frames */
	struct sbuf line;      /* a copy of the frame line while -F+srcline lines are read */
	struct sbuf src;
	struct addr2line *a2l; /* with --inline */
};

static bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && !memcmp(s.p, lit, n);
}

static bool contains(const char *p, size_t len, const char *lit)
{
	return memmem(p, len, lit, strlen(lit)) != NULL;
}

/* Digits as a Perl number; "" or "0" read as 1, as the Perl's `if (not $period)` does. */
static int parse_period(struct span d, uint64_t *period)
{
	uint64_t v = 0;

	for (size_t i = 0; i < d.len; i++) {
		if (!text_add_digit(&v, d.p[i]))
			return -EOVERFLOW;
	}
	*period = d.len == 0 || span_eq(d, "0") ? 1 : v;
	return 0;
}

/*
 * /^(\S.+?)\s+(\d+)[/]*(\d+)*\s+/ : the comm is the shortest prefix of two or more bytes
 * followed by blanks, a number, optional slashes and digits, and a blank.
 */
static bool match_event(const char *s, size_t len, struct span *comm, struct span *pid,
			struct span *tid)
{
	if (len < 2 || text_is_space(s[0]))
		return false;
	for (size_t e = 2; e < len; e++) {
		size_t j = e, d1, d2;

		if (!text_is_space(s[e]))
			continue;
		while (j < len && text_is_space(s[j]))
			j++;
		for (d1 = j; j < len && text_is_digit(s[j]); j++)
			;
		if (j == d1) {
			e = j - 1;
			continue;
		}
		*pid = (struct span){ s + d1, j - d1 };
		while (j < len && s[j] == '/')
			j++;
		for (d2 = j; j < len && text_is_digit(s[j]); j++)
			;
		*tid = (struct span){ s + d2, j - d2 };
		if (j < len && text_is_space(s[j])) {
			*comm = (struct span){ s, e };
			return true;
		}
		e = j - 1;
	}
	return false;
}

/* /:\s*(\d+)*\s+(\S+):\s*$/ : the period and the event name closing an event line. */
static bool match_period_event(const char *s, size_t len, struct span *period, struct span *event)
{
	size_t q = len, ts, w, d, digits;

	while (q > 0 && text_is_space(s[q - 1]))
		q--;
	if (q < 2 || s[q - 1] != ':')
		return false;
	for (ts = q - 1; ts > 0 && !text_is_space(s[ts - 1]); ts--)
		;
	if (ts == 0 || ts == q - 1)
		return false;
	for (w = ts; w > 0 && text_is_space(s[w - 1]); w--)
		;
	for (digits = w; digits > 0 && text_is_digit(s[digits - 1]); digits--)
		;
	for (d = digits; d < w && d > 0 && text_is_space(s[d - 1]); d--)
		;
	if (d == 0 || s[d - 1] != ':')
		return false;
	*period = (struct span){ s + digits, w - digits };
	*event = (struct span){ s + ts, q - 1 - ts };
	return true;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/ with Perl's backtracking: the module is between the last
 * " (" that a ')' follows and the last ')'; the address is the leading word.
 */
static bool match_frame(const char *s, size_t len, struct span *pc, struct span *func,
			struct span *mod)
{
	const char *rp = memrchr(s, ')', len), *open;
	size_t l = 0, k, ws, close, i, start;

	if (!rp)
		return false;
	close = (size_t)(rp - s);
	while (l < len && text_is_space(s[l]))
		l++;
	for (k = l; k < len && text_is_word(s[k]); k++)
		;
	k -= l;
	if (k == 0)
		return false;
	for (ws = l + k; ws < len && text_is_space(s[ws]); ws++)
		;
	ws -= l + k;
	/* the last " (" before the ')' */
	for (i = close; (open = memrchr(s, '(', i)) && !(open > s && open[-1] == ' ');)
		i = (size_t)(open - s);
	if (!open)
		return false;
	i = (size_t)(open - s) - 1;
	if (l + k + ws + 1 <= i) {
		start = l + k + ws;
	} else if (l + k + 1 <= i) {
		start = i - 1;
	} else if (i >= l + 2) {
		k = i - 1 - l;
		start = i - 1;
	} else {
		return false;
	}
	*pc = (struct span){ s + l, k };
	*func = (struct span){ s + start, i - start };
	*mod = (struct span){ s + i + 2, close - i - 2 };
	return true;
}

/*
 * An event line starts a sample: keep its period and build the process frame "comm[-PID[/TID]]",
 * spaces made '_'. Without a TID the PID is taken as the TID and the PID shows as "?", as the Perl
 * does. A sample of an event other than the one kept (the first seen, unless named) is only counted
 * in st->filtered. Returns 0, 1 if s is no event line, or a negative errno.
 */
static int start_sample(struct parser *ps, const char *s, size_t len)
{
	struct span comm, pid, tid, period = { NULL, 0 }, event;
	const char *pidstr;
	size_t pidlen;
	int err;

	if (!match_event(s, len, &comm, &pid, &tid))
		return 1;
	if (match_period_event(s, len, &period, &event)) {
		if (!ps->event.len) {
			/* by default only the first event seen: mixing events misleads */
			if (sbuf_add(&ps->event, event.p, event.len))
				return -ENOMEM;
		} else if (event.len != ps->event.len ||
			   memcmp(event.p, ps->event.buf, event.len)) {
			if (!ps->st->filtered)
				snprintf(ps->st->other_event, sizeof(ps->st->other_event), "%.*s",
					 (int)event.len, event.p);
			ps->st->filtered++;
			return 0;
		}
	}
	err = parse_period(period, &ps->period);
	if (err)
		return err;
	pidstr = pid.p;
	pidlen = pid.len;
	if (tid.len == 0 || span_eq(tid, "0")) {
		tid = pid;
		pidstr = "?";
		pidlen = 1;
	}
	sbuf_setlen(&ps->pname, 0);
	err = sbuf_add(&ps->pname, comm.p, comm.len);
	if (!err && (ps->o->tid || ps->o->pid))
		err = sbuf_addch(&ps->pname, '-') ?: sbuf_add(&ps->pname, pidstr, pidlen);
	if (!err && ps->o->tid)
		err = sbuf_addch(&ps->pname, '/') ?: sbuf_add(&ps->pname, tid.p, tid.len);
	if (err)
		return err;
	for (char *c = ps->pname.buf; (c = memchr(c, ' ', ps->pname.buf + ps->pname.len - c));)
		*c = '_';
	return 0;
}

/* "[unknown]" becomes the module's file name, or "[unknown]" with no module either. */
static int add_unknown(struct parser *ps, struct span pc, struct span mod, bool *is_unknown)
{
	struct span name = { "unknown", 7 };

	if (!span_eq(mod, "[unknown]")) {
		const char *slash = memrchr(mod.p, '/', mod.len);

		name = mod;
		if (slash)
			name = (struct span){ slash + 1, (size_t)(mod.p + mod.len - slash - 1) };
	} else {
		*is_unknown = true;
	}
	if (sbuf_addch(&ps->stack.text, '[') || sbuf_add(&ps->stack.text, name.p, name.len))
		return -ENOMEM;
	if (ps->o->addrs &&
	    (sbuf_add(&ps->stack.text, " <", 2) || sbuf_add(&ps->stack.text, pc.p, pc.len) ||
	     sbuf_addch(&ps->stack.text, '>')))
		return -ENOMEM;
	return sbuf_addch(&ps->stack.text, ']');
}

/* A Go method such as "net/http.(*Client).Do" keeps its parentheses: /\.\(.*\)\./ */
static bool looks_like_go(const char *f, size_t len)
{
	const char *open = f, *end = f + len;

	/* memchr, not memmem: this runs on every frame and memmem's setup costs more */
	while ((open = memchr(open, '.', (size_t)(end - open))) && end - open >= 2 &&
	       open[1] != '(')
		open++;
	if (open && end - open < 2)
		open = NULL;
	for (size_t r = len; open && r >= 2; r--)
		if (f[r - 2] == ')' && f[r - 1] == '.')
			return f + r - 2 >= open + 2;
	return false;
}

/* The generic tidying: ';' to ':', arguments dropped, quotes deleted. Returns the new length. */
static size_t tidy_generic(char *f, size_t len)
{
	size_t n = 0;

	for (char *c = f; (c = memchr(c, ';', f + len - c));)
		*c = ':';
	if (!looks_like_go(f, len)) {
		static const char anon[] = "anonymous namespace)";

		for (char *c = f; (c = memchr(c, '(', f + len - c)); c++) {
			size_t rest = (size_t)(f + len - c - 1);

			if (rest < sizeof(anon) - 1 || memcmp(c + 1, anon, sizeof(anon) - 1)) {
				len = (size_t)(c - f);
				break;
			}
		}
	}
	if (!memchr(f, '"', len) && !memchr(f, '\'', len))
		return len;
	for (size_t i = 0; i < len; i++)
		if (f[i] != '"' && f[i] != '\'')
			f[n++] = f[i];
	return n;
}

/* m:/tmp/perf-\d+\.map: */
static bool is_perf_map(struct span mod)
{
	const char *p = mod.p, *end = mod.p + mod.len;

	while ((p = memmem(p, (size_t)(end - p), "/tmp/perf-", 10))) {
		const char *d = p += 10;

		while (d < end && text_is_digit(*d))
			d++;
		if (d > p && end - d >= 4 && !memcmp(d, ".map", 4))
			return true;
	}
	return false;
}

static bool is_kernel_module(struct span mod)
{
	return ((mod.len && mod.p[0] == '[') ||
		(mod.len >= 7 && !memcmp(mod.p + mod.len - 7, "vmlinux", 7))) &&
	       !contains(mod.p, mod.len, "unknown");
}

static int annotate(struct parser *ps, size_t start, bool inlined, struct span mod)
{
	const char *f = ps->stack.text.buf + start;
	size_t len = ps->stack.text.len - start;

	if (inlined)
		return contains(f, len, "_[i]") ? 0 : sbuf_add(&ps->stack.text, "_[i]", 4);
	if (ps->o->kernel && is_kernel_module(mod))
		return sbuf_add(&ps->stack.text, "_[k]", 4);
	if (ps->o->jit && is_perf_map(mod) && !contains(f, len, "_[j]"))
		return sbuf_add(&ps->stack.text, "_[j]", 4);
	return 0;
}

/* -F+srcline: the next line holds the source of the frame; brackets and blanks go. */
static int add_srcline(struct parser *ps)
{
	const char *s = "";
	size_t len = 0, b = 0, e;
	int more = lines_next(ps->lr, &s, &len);

	if (more < 0)
		return more;
	if (more)
		ps->st->lines++;
	sbuf_setlen(&ps->src, 0);
	for (size_t i = 0; i < len; i++) {
		const char *close = s[i] == '[' ? memchr(s + i + 1, ']', len - i - 1) : NULL;

		if (close)
			i = (size_t)(close - s);
		else if (sbuf_addch(&ps->src, s[i]))
			return -ENOMEM;
	}
	e = ps->src.len;
	while (b < e && text_is_space(ps->src.buf[b]))
		b++;
	while (e > b && text_is_space(ps->src.buf[e - 1]))
		e--;
	if (e == b)
		return 0;
	if (sbuf_addch(&ps->stack.text, ':'))
		return -ENOMEM;
	return sbuf_add(&ps->stack.text, ps->src.buf + b, e - b);
}

/*
 * Append one frame of the current sample: "[unknown]" named after its module, tidied, a Java class
 * signature's leading 'L' dropped in a java process, then its _[k]/_[j]/_[i] annotation and, with
 * -F+srcline, the source line that follows (unless the frame is unknown, which sets *is_unknown).
 * Returns 0 or a negative errno.
 */
static int add_frame(struct parser *ps, struct span elem, struct span pc, struct span mod,
		     bool inlined, bool *is_unknown)
{
	size_t start = ps->stack.text.len;
	char *f;
	int err;

	if (span_eq(elem, "[unknown]"))
		err = add_unknown(ps, pc, mod, is_unknown);
	else
		err = sbuf_add(&ps->stack.text, elem.p, elem.len);
	if (err)
		return err;
	f = ps->stack.text.buf + start;
	sbuf_setlen(&ps->stack.text, start + tidy_generic(f, ps->stack.text.len - start));
	if (ps->pname.len >= 4 && !memcmp(ps->pname.buf, "java", 4) && f[0] == 'L' &&
	    memchr(f, '/', ps->stack.text.len - start)) {
		memmove(f, f + 1, ps->stack.text.len - start - 1);
		sbuf_setlen(&ps->stack.text, ps->stack.text.len - 1);
	}
	err = annotate(ps, start, inlined, mod);
	if (!err && ps->o->srcline && !*is_unknown)
		err = add_srcline(ps);
	if (!err)
		err = stackbuf_end_frame(&ps->stack, start);
	return err;
}

/* Drop a trailing /\+0x[\da-f]+$/ offset (perf >= 4.8 prints symbol offsets). */
static void strip_offset(struct span *func)
{
	size_t i = func->len;

	while (i > 0 &&
	       (text_is_digit(func->p[i - 1]) || (func->p[i - 1] >= 'a' && func->p[i - 1] <= 'f')))
		i--;
	if (i < func->len && i >= 3 && !memcmp(func->p + i - 3, "+0x", 3))
		func->len = i - 3;
}

/* The first "->" in [p, end): memchr, as memmem's setup costs more than most frames take. */
static const char *find_arrow(const char *p, const char *end)
{
	while ((p = memchr(p, '-', (size_t)(end - p))) && end - p >= 2 && p[1] != '>')
		p++;
	return p && end - p >= 2 ? p : NULL;
}

/*
 * split /->/: inlined frames, caller first, trailing empty fields dropped as Perl does.
 * Frames are pushed leaf first, so the frames of one line are reversed once added.
 */
static int add_frames(struct parser *ps, struct span func, struct span pc, struct span mod)
{
	const char *p = func.p, *end = func.p + func.len;
	bool is_unknown = false;
	size_t first = ps->stack.n;
	int err = 0;

	while (end - p >= 2 && end[-2] == '-' && end[-1] == '>')
		end -= 2;
	if (p == end)
		return 0;
	while (!err) {
		const char *arrow = find_arrow(p, end);
		const char *stop = arrow ? arrow : end;

		err = add_frame(ps, (struct span){ p, (size_t)(stop - p) }, pc, mod,
				ps->stack.n > first, &is_unknown);
		if (!arrow)
			break;
		p = arrow + 2;
	}
	stackbuf_reverse_from(&ps->stack, first);
	return err;
}

/* The Perl's --inline skips m/(perf-\d+.map|kernel\.|\[[^\]]+\])/: JIT maps, the kernel, [x]. */
static bool may_inline(struct span mod)
{
	const char *p = mod.p, *end = mod.p + mod.len;

	if (contains(p, mod.len, "kernel."))
		return false;
	for (const char *b = p; (b = memchr(b, '[', (size_t)(end - b))); b++)
		if (end - b >= 3 && b[1] != ']' && memchr(b + 2, ']', (size_t)(end - b - 2)))
			return false;
	while ((p = memmem(p, (size_t)(end - p), "perf-", 5))) {
		const char *d = p += 5;

		while (d < end && text_is_digit(*d))
			d++;
		if (d > p && end - d >= 4 && !memcmp(d + 1, "map", 3))
			return false;
	}
	return true;
}

/* --inline: the frames addr2line finds for this address, as one element. 1: none found. */
static int inlined_frames(struct parser *ps, struct span pc, struct span func, struct span mod)
{
	const char *frames;
	size_t len;
	int err;

	if (!may_inline(mod))
		return 1;
	err = addr2line_frames(ps->a2l, pc.p, pc.len, func.p, func.len, mod.p, mod.len, &frames,
			       &len);
	if (err)
		return err;
	return frames ? stackbuf_push(&ps->stack, frames, len) : 1;
}

/* Returns 0, 1 for a line that is no frame line, or a negative errno. */
static int frame_line(struct parser *ps, const char *s, size_t len)
{
	struct span pc, func, mod;

	if (!match_frame(s, len, &pc, &func, &mod))
		return 1;
	if (!ps->pname.len)
		return 0;
	if (ps->o->srcline) {
		/* the source lines that follow are read into the same buffer: keep a copy */
		sbuf_setlen(&ps->line, 0);
		if (sbuf_add(&ps->line, s, len))
			return -ENOMEM;
		match_frame(ps->line.buf, len, &pc, &func, &mod);
	}
	if (ps->a2l) {
		int r = inlined_frames(ps, pc, func, mod);

		if (r <= 0)
			return r;
	}
	strip_offset(&func);
	if (func.len && func.p[0] == '(')
		return 0;
	return add_frames(ps, func, pc, mod);
}

static int end_sample(struct parser *ps)
{
	const char *stack;
	size_t len;
	int err;

	if (!ps->pname.len)
		return 0;
	err = stackbuf_join(&ps->stack, ps->pname.buf, ps->pname.len, &stack, &len);
	if (!err)
		err = folded_add(ps->out, stack, len, ps->period);
	ps->st->records++;
	sbuf_setlen(&ps->pname, 0);
	stackbuf_reset(&ps->stack);
	return err;
}

static void parser_release(struct parser *ps)
{
	sbuf_release(&ps->event);
	sbuf_release(&ps->pname);
	stackbuf_release(&ps->stack);
	sbuf_release(&ps->line);
	sbuf_release(&ps->src);
	addr2line_free(ps->a2l);
}

static int fold_line(struct parser *ps, const char *s, size_t len)
{
	int r;

	if (len && s[0] == '#')
		return 0;
	if (len == 0)
		return end_sample(ps);
	r = start_sample(ps, s, len);
	if (r <= 0)
		return r;
	r = frame_line(ps, s, len);
	if (r == 1)
		ps->st->unrecognized++;
	return r < 0 ? r : 0;
}

int perfscript_fold(struct lines *lr, const struct perfscript_opts *opts, struct folded *out,
		    struct perfscript_stats *st)
{
	struct parser ps = { .o = opts, .st = st, .lr = lr, .out = out };
	const char *s;
	size_t len;
	int err = 0, more = 0;

	memset(st, 0, sizeof(*st));
	if (opts->event && opts->event[0] && sbuf_addstr(&ps.event, opts->event))
		return -ENOMEM;
	if (opts->inlined && !(ps.a2l = addr2line_new(opts->context))) {
		parser_release(&ps);
		return -ENOMEM;
	}
	while (!err && (more = lines_next(lr, &s, &len)) > 0) {
		st->lines++;
		err = fold_line(&ps, s, len);
	}
	if (!err)
		err = more;
	if (!err && ps.pname.len)
		st->incomplete = 1;
	snprintf(st->event, sizeof(st->event), "%s", ps.event.len ? ps.event.buf : "");
	parser_release(&ps);
	return err;
}
