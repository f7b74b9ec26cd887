/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pprofread.c - a bounded protobuf reader for the parts of profile.proto that make stacks.
 * Every length is checked against what is left, ids are looked up by binary search (an
 * unknown one becomes its address or "?"), and nothing recurses, so a hostile file costs
 * at most time linear in its size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/pprofread.h"
#include "lib/sbuf.h"

struct pb {
	const unsigned char *p, *end;
};

struct span {
	const unsigned char *p;
	size_t len;
};

/* A growable array of spans (string table, messages kept for a second look). */
struct spans {
	struct span *v;
	size_t n, cap;
};

struct pfunc {
	uint64_t id;
	uint64_t name, system_name;
};

struct ploc {
	uint64_t id, address;
	size_t line, nlines; /* into the function-id array */
};

struct reader {
	struct spans strings, types, samples, locs, funcs;
	uint64_t default_type;
	struct pfunc *fv;
	struct ploc *lv;
	uint64_t *lines; /* function id of each line, every location's in a row */
	size_t nlines, caplines;
};

/* Fields of profile.proto used here. */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
};

static int pb_varint(struct pb *b, uint64_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (b->p == b->end)
			return -EINVAL;
		unsigned char c = *b->p++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The next field of b: its number, and its value (wire type 0) or contents (wire type 2).
 * Fixed-size fields are skipped over but reported. Returns 1, 0 at the end, or -EINVAL.
 */
static int pb_next(struct pb *b, uint32_t *field, int *wt, uint64_t *v, struct pb *sub)
{
	uint64_t key, n;

	if (b->p == b->end)
		return 0;
	if (pb_varint(b, &key) || key >> 32)
		return -EINVAL;
	*field = (uint32_t)(key >> 3);
	*wt = (int)(key & 7);
	switch (*wt) {
	case 0:
		return pb_varint(b, v) ? -EINVAL : 1;
	case 1:
	case 5:
		n = *wt == 1 ? 8 : 4;
		break;
	case 2:
		if (pb_varint(b, &n))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (n > (size_t)(b->end - b->p))
		return -EINVAL;
	sub->p = b->p;
	sub->end = b->p + n;
	b->p += n;
	return 1;
}

/*
 * A repeated integer field, packed (wire type 2) or not: call fn for each value.
 * Returns 0 or -EINVAL.
 */
static int pb_each(int wt, uint64_t v, struct pb *sub, int (*fn)(void *, uint64_t), void *ctx)
{
	int err;

	if (wt == 0)
		return fn(ctx, v);
	if (wt != 2)
		return -EINVAL;
	while (sub->p < sub->end) {
		err = pb_varint(sub, &v);
		err = err ?: fn(ctx, v);
		if (err)
			return err;
	}
	return 0;
}

static int spans_add(struct spans *s, const struct pb *b)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		struct span *nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n++] = (struct span){ b->p, (size_t)(b->end - b->p) };
	return 0;
}

/* First pass: keep where each message of interest lies. */
static int scan_profile(struct reader *r, const unsigned char *buf, size_t len)
{
	struct pb b = { buf, buf + len }, sub = { NULL, NULL };
	uint32_t field;
	uint64_t v = 0;
	int wt, rc;

	while ((rc = pb_next(&b, &field, &wt, &v, &sub)) > 0) {
		struct spans *dst = NULL;

		switch (field) {
		case PROFILE_SAMPLE_TYPE:
			dst = &r->types;
			break;
		case PROFILE_SAMPLE:
			dst = &r->samples;
			break;
		case PROFILE_LOCATION:
			dst = &r->locs;
			break;
		case PROFILE_FUNCTION:
			dst = &r->funcs;
			break;
		case PROFILE_STRING_TABLE:
			dst = &r->strings;
			break;
		case PROFILE_DEFAULT_SAMPLE_TYPE:
			r->default_type = wt == 0 ? v : 0;
			break;
		}
		if (dst && (wt != 2 || spans_add(dst, &sub)))
			return wt != 2 ? -EINVAL : -ENOMEM;
	}
	return rc;
}

static struct span string_at(const struct reader *r, uint64_t i)
{
	return i < r->strings.n ? r->strings.v[i] : (struct span){ (const unsigned char *)"", 0 };
}

static int by_func_id(const void *a, const void *b)
{
	const struct pfunc *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int by_loc_id(const void *a, const void *b)
{
	const struct ploc *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Decode the kept Function messages: id (1), name (2), system_name (3), varints only; then sort
 * by id for bsearch. Returns 0, -ENOMEM or -EINVAL.
 */
static int read_functions(struct reader *r)
{
	r->fv = calloc(r->funcs.n ? r->funcs.n : 1, sizeof(*r->fv));
	if (!r->fv)
		return -ENOMEM;
	for (size_t i = 0; i < r->funcs.n; i++) {
		struct pb b = { r->funcs.v[i].p, r->funcs.v[i].p + r->funcs.v[i].len }, sub;
		uint32_t field;
		uint64_t v = 0;
		int wt, rc;

		while ((rc = pb_next(&b, &field, &wt, &v, &sub)) > 0) {
			if (wt != 0)
				continue;
			if (field == 1)
				r->fv[i].id = v;
			else if (field == 2)
				r->fv[i].name = v;
			else if (field == 3)
				r->fv[i].system_name = v;
		}
		if (rc < 0)
			return rc;
	}
	qsort(r->fv, r->funcs.n, sizeof(*r->fv), by_func_id);
	return 0;
}

static int add_line(void *ctx, uint64_t function_id)
{
	struct reader *r = ctx;

	if (r->nlines == r->caplines) {
		size_t ncap = r->caplines ? r->caplines * 2 : 256;
		uint64_t *nv = realloc(r->lines, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		r->lines = nv;
		r->caplines = ncap;
	}
	r->lines[r->nlines++] = function_id;
	return 0;
}

/* A Line message: only its function_id (field 1) matters; 0 stands for none. */
static int read_line(struct reader *r, struct pb *b)
{
	struct pb sub;
	uint32_t field;
	uint64_t v = 0, fid = 0;
	int wt, rc;

	while ((rc = pb_next(b, &field, &wt, &v, &sub)) > 0)
		if (field == 1 && wt == 0)
			fid = v;
	return rc < 0 ? rc : add_line(r, fid);
}

static int read_location(struct reader *r, struct ploc *l, struct pb *b)
{
	struct pb sub;
	uint32_t field;
	uint64_t v = 0;
	int wt, rc, err;

	l->line = r->nlines;
	while ((rc = pb_next(b, &field, &wt, &v, &sub)) > 0) {
		if (field == 1 && wt == 0)
			l->id = v;
		else if (field == 3 && wt == 0)
			l->address = v;
		else if (field == 4 && wt == 2 && (err = read_line(r, &sub)))
			return err;
	}
	l->nlines = r->nlines - l->line;
	return rc;
}

static int read_locations(struct reader *r)
{
	int err;

	r->lv = calloc(r->locs.n ? r->locs.n : 1, sizeof(*r->lv));
	if (!r->lv)
		return -ENOMEM;
	for (size_t i = 0; i < r->locs.n; i++) {
		struct pb b = { r->locs.v[i].p, r->locs.v[i].p + r->locs.v[i].len };

		err = read_location(r, &r->lv[i], &b);
		if (err)
			return err;
	}
	qsort(r->lv, r->locs.n, sizeof(*r->lv), by_loc_id);
	return 0;
}

/* A name as a folded frame: ';' would split it, so it becomes ':'. */
static int add_name(struct sbuf *sb, struct span s)
{
	size_t start = sb->len;

	if (sbuf_add(sb, s.p, s.len))
		return -ENOMEM;
	for (size_t i = start; i < sb->len; i++)
		if (sb->buf[i] == ';')
			sb->buf[i] = ':';
	return 0;
}

static int add_function(const struct reader *r, struct sbuf *sb, uint64_t fid, uint64_t address)
{
	struct pfunc key = { .id = fid };
	const struct pfunc *fn =
		r->funcs.n ? bsearch(&key, r->fv, r->funcs.n, sizeof(key), by_func_id) : NULL;
	struct span s = { NULL, 0 };

	if (fn) {
		s = string_at(r, fn->name);
		if (!s.len)
			s = string_at(r, fn->system_name);
	}
	if (s.len)
		return add_name(sb, s);
	return address ? sbuf_addf(sb, "0x%" PRIx64, address) : sbuf_addch(sb, '?');
}

/* One location's frames, caller first: the last line is the function the others were inlined into. */
static int add_location(const struct reader *r, struct sbuf *sb, uint64_t id)
{
	struct ploc key = { .id = id };
	const struct ploc *l =
		r->locs.n ? bsearch(&key, r->lv, r->locs.n, sizeof(key), by_loc_id) : NULL;
	int err = 0;

	if (!l || !l->nlines) {
		if (sb->len && sbuf_addch(sb, ';'))
			return -ENOMEM;
		return add_function(r, sb, 0, l ? l->address : 0);
	}
	for (size_t i = l->nlines; i-- > 0 && !err;) {
		err = sb->len ? sbuf_addch(sb, ';') : 0;
		err = err ?: add_function(r, sb, r->lines[l->line + i], l->address);
	}
	return err;
}

struct sample {
	uint64_t locs[PPROF_MAX_DEPTH];
	size_t nlocs;
	int64_t values[PPROF_MAX_TYPES];
	int nvalues;
};

static int sample_loc(void *ctx, uint64_t v)
{
	struct sample *s = ctx;

	/* leaf first: past the cap, the newest (root side) replaces the last kept */
	s->locs[s->nlocs < PPROF_MAX_DEPTH ? s->nlocs++ : PPROF_MAX_DEPTH - 1] = v;
	return 0;
}

static int sample_value(void *ctx, uint64_t v)
{
	struct sample *s = ctx;

	if (s->nvalues < PPROF_MAX_TYPES)
		s->values[s->nvalues] = (int64_t)v;
	s->nvalues++;
	return 0;
}

/*
 * One Sample: its stack built in sb root first (pprof lists leaf first), added to each type's
 * profile whose value is positive (values past p->ntypes ignored). Returns 0, -ENOMEM or -EINVAL.
 */
static int read_sample(struct reader *r, struct pprof_profile *p, struct span m, struct sample *s,
		       struct sbuf *sb)
{
	struct pb b = { m.p, m.p + m.len }, sub = { NULL, NULL };
	uint32_t field;
	uint64_t v = 0;
	int wt, rc, err = 0;

	s->nlocs = 0;
	s->nvalues = 0;
	while ((rc = pb_next(&b, &field, &wt, &v, &sub)) > 0 && !err) {
		if (field == 1)
			err = pb_each(wt, v, &sub, sample_loc, s);
		else if (field == 2)
			err = pb_each(wt, v, &sub, sample_value, s);
	}
	if (rc < 0 || err)
		return rc < 0 ? rc : err;
	sbuf_setlen(sb, 0);
	for (size_t i = s->nlocs; i-- > 0 && !err;)
		err = add_location(r, sb, s->locs[i]);
	for (int t = 0; t < p->ntypes && t < s->nvalues && !err; t++)
		if (s->values[t] > 0)
			err = folded_add(p->f[t], sb->buf ? sb->buf : "", sb->len,
					 (uint64_t)s->values[t]);
	return err;
}

static char *span_dup(struct span s)
{
	char *c = malloc(s.len + 1);

	if (c) {
		memcpy(c, s.p, s.len);
		c[s.len] = '\0';
	}
	return c;
}

/* sample_type: ValueType { type = 1, unit = 2 }, both string indices. */
static int read_types(struct reader *r, struct pprof_profile *p)
{
	for (size_t i = 0; i < r->types.n && p->ntypes < PPROF_MAX_TYPES; i++) {
		struct pb b = { r->types.v[i].p, r->types.v[i].p + r->types.v[i].len }, sub;
		uint64_t v = 0, type = 0, unit = 0;
		uint32_t field;
		int wt, rc, t = p->ntypes;

		while ((rc = pb_next(&b, &field, &wt, &v, &sub)) > 0) {
			if (field == 1 && wt == 0)
				type = v;
			else if (field == 2 && wt == 0)
				unit = v;
		}
		if (rc < 0)
			return rc;
		p->ntypes++; /* counted first: a failure below is released whole */
		p->type[t] = span_dup(string_at(r, type));
		p->unit[t] = span_dup(string_at(r, unit));
		p->f[t] = folded_new();
		if (!p->type[t] || !p->unit[t] || !p->f[t])
			return -ENOMEM;
	}
	return 0;
}

static void default_type(const struct reader *r, struct pprof_profile *p)
{
	struct span want = string_at(r, r->default_type);

	p->default_type = 0;
	for (int t = 0; r->default_type && t < p->ntypes; t++)
		if (strlen(p->type[t]) == want.len && !memcmp(p->type[t], want.p, want.len))
			p->default_type = t;
}

static int read_samples(struct reader *r, struct pprof_profile *p)
{
	struct sample *s = malloc(sizeof(*s));
	struct sbuf sb = SBUF_INIT;
	int err = s ? 0 : -ENOMEM;

	for (size_t i = 0; i < r->samples.n && !err; i++)
		err = read_sample(r, p, r->samples.v[i], s, &sb);
	sbuf_release(&sb);
	free(s);
	return err;
}

static void reader_release(struct reader *r)
{
	free(r->strings.v);
	free(r->types.v);
	free(r->samples.v);
	free(r->locs.v);
	free(r->funcs.v);
	free(r->fv);
	free(r->lv);
	free(r->lines);
}

int pprof_parse(struct pprof_profile *p, const unsigned char *buf, size_t len)
{
	struct reader r;
	int err;

	memset(&r, 0, sizeof(r));
	memset(p, 0, sizeof(*p));
	err = scan_profile(&r, buf, len);
	err = err ?: read_types(&r, p);
	err = err ?: read_functions(&r);
	err = err ?: read_locations(&r);
	err = err ?: read_samples(&r, p);
	if (!err && !p->ntypes)
		err = -EINVAL;
	if (!err)
		default_type(&r, p);
	reader_release(&r);
	if (err)
		pprof_profile_release(p);
	return err;
}

int pprof_sniff(const unsigned char *buf, size_t len)
{
	if (!len || (buf[0] & 7) != 2 || buf[0] >> 3 < 1 || buf[0] >> 3 > 15)
		return 0;
	for (size_t i = 0; i < len && i < 256; i++)
		if (buf[i] < 0x09 || (buf[i] > 0x0d && buf[i] < 0x20))
			return 1;
	return 0;
}

void pprof_profile_release(struct pprof_profile *p)
{
	for (int t = 0; t < p->ntypes; t++) {
		free(p->type[t]);
		free(p->unit[t]);
		folded_free(p->f[t]);
	}
	memset(p, 0, sizeof(*p));
}
