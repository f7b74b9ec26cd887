/* SPDX-License-Identifier: BSD-2-Clause */
/* pprof.c - export a folded profile as a gzipped pprof profile.proto, encoded by hand */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/sbuf.h"
#include "render/pprof.h"

/* profile.proto field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	VALUETYPE_TYPE = 1,
	VALUETYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	LOCATION_ID = 1,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
};

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static int put_varint(struct sbuf *sb, uint64_t v)
{
	unsigned char buf[10];
	int n = 0;

	do {
		buf[n] = v & 0x7f;
		v >>= 7;
		if (v)
			buf[n] |= 0x80;
		n++;
	} while (v);
	return sbuf_add(sb, buf, n);
}

static int put_uint(struct sbuf *sb, int field, uint64_t v)
{
	if (!v)
		return 0; /* proto3 default */
	return put_varint(sb, (uint64_t)field << 3 | WIRE_VARINT) ?: put_varint(sb, v);
}

static int put_bytes(struct sbuf *sb, int field, const void *data, size_t len)
{
	return put_varint(sb, (uint64_t)field << 3 | WIRE_LEN) ?: put_varint(sb, len) ?:
	       sbuf_add(sb, data, len);
}

/* Strings and frames are interned: equal text, equal id. */
struct intern {
	struct intern_slot {
		const char *s;
		size_t len;
		uint64_t id; /* 0: empty slot */
	} * slots;
	size_t cap, count;
};

static uint64_t hash_text(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static int intern_grow(struct intern *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024;
	struct intern_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slots[i].id)
			continue;
		j = hash_text(t->slots[i].s, t->slots[i].len) & (ncap - 1);
		while (ns[j].id)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

/* The id of s (1-based), *added set when it is new. 0 on -ENOMEM. */
static uint64_t intern(struct intern *t, const char *s, size_t len, int *added)
{
	size_t i;

	*added = 0;
	if ((t->count + 1) * 2 > t->cap && intern_grow(t))
		return 0;
	for (i = hash_text(s, len) & (t->cap - 1); t->slots[i].id; i = (i + 1) & (t->cap - 1))
		if (t->slots[i].len == len && !memcmp(t->slots[i].s, s, len))
			return t->slots[i].id;
	t->slots[i] = (struct intern_slot){ s, len, ++t->count };
	*added = 1;
	return t->count;
}

struct encoder {
	struct sbuf out, strings, msg, ids, vals; /* msg, ids, vals: one sample */
	struct sbuf fn, line;                     /* one function and its location */
	struct intern strtab, frames;
	const struct pprof_opts *o;
};

/* Index of s in the string table, appending it when new. -ENOMEM as (uint64_t)-1. */
static int64_t string_id(struct encoder *e, const char *s, size_t len)
{
	int added;
	uint64_t id = intern(&e->strtab, s, len, &added);

	if (!id)
		return -ENOMEM;
	if (added && put_bytes(&e->strings, PROFILE_STRING_TABLE, s, len))
		return -ENOMEM;
	return (int64_t)id; /* the table starts with "", so index == 1-based id */
}

static const char *frame_file(const char *f, size_t *len)
{
	static const struct {
		char tag;
		const char *file;
	} files[] = { { 'k', "[kernel.kallsyms]" }, { 'j', "[jit]" } };

	if (*len >= 4 && f[*len - 4] == '_' && f[*len - 3] == '[' && f[*len - 1] == ']') {
		char tag = f[*len - 2];

		*len -= 4;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			if (files[i].tag == tag)
				return files[i].file;
	}
	return "";
}

/* A function and a location of the same id for each distinct frame. */
static int64_t frame_id(struct encoder *e, const char *f, size_t len)
{
	int added;
	uint64_t id = intern(&e->frames, f, len, &added);
	size_t nlen = len;
	const char *file;
	int64_t name, fname;
	int err;

	if (!id)
		return -ENOMEM;
	if (!added)
		return (int64_t)id;
	file = frame_file(f, &nlen);
	name = string_id(e, f, nlen);
	fname = string_id(e, file, strlen(file));
	if (name < 0 || fname < 0)
		return -ENOMEM;
	sbuf_setlen(&e->fn, 0);
	sbuf_setlen(&e->line, 0);
	err = put_uint(&e->fn, FUNCTION_ID, id) ?: put_uint(&e->fn, FUNCTION_NAME, name) ?:
	      put_uint(&e->fn, FUNCTION_SYSTEM_NAME, name) ?:
	      put_uint(&e->fn, FUNCTION_FILENAME, fname) ?:
	      put_bytes(&e->out, PROFILE_FUNCTION, e->fn.buf, e->fn.len);
	err = err ?: put_uint(&e->line, LINE_FUNCTION_ID, id);
	sbuf_setlen(&e->fn, 0);
	err = err ?: put_uint(&e->fn, LOCATION_ID, id) ?:
		      put_bytes(&e->fn, LOCATION_LINE, e->line.buf, e->line.len) ?:
		      put_bytes(&e->out, PROFILE_LOCATION, e->fn.buf, e->fn.len);
	return err ? err : (int64_t)id;
}

/* One Sample: location ids leaf first, then the values. */
static int encode_sample(struct encoder *e, const struct folded_entry *ent)
{
	const char *end = ent->stack + ent->len, *p = end;
	uint64_t w = ent->weight + (ent->frac >= 0.5);
	int err = 0;

	sbuf_setlen(&e->ids, 0);
	sbuf_setlen(&e->vals, 0);
	while (p > ent->stack && !err) {
		const char *start = p;
		int64_t id;

		while (start > ent->stack && start[-1] != ';')
			start--;
		id = frame_id(e, start, p - start);
		err = id < 0 ? (int)id : put_varint(&e->ids, id);
		p = start > ent->stack ? start - 1 : start;
	}
	for (int i = 0; i < e->o->nvalues && !err; i++)
		err = put_varint(&e->vals, w * e->o->scale[i]);
	sbuf_setlen(&e->msg, 0);
	err = err ?: put_bytes(&e->msg, SAMPLE_LOCATION_ID, e->ids.buf, e->ids.len) ?:
		      put_bytes(&e->msg, SAMPLE_VALUE, e->vals.buf, e->vals.len);
	return err ?: put_bytes(&e->out, PROFILE_SAMPLE, e->msg.buf, e->msg.len);
}

static int encode_value_type(struct encoder *e, int field, const char *type, const char *unit)
{
	int64_t t = string_id(e, type, strlen(type)), u = string_id(e, unit, strlen(unit));

	if (t < 0 || u < 0)
		return -ENOMEM;
	sbuf_setlen(&e->msg, 0);
	return put_uint(&e->msg, VALUETYPE_TYPE, t) ?: put_uint(&e->msg, VALUETYPE_UNIT, u) ?:
	       put_bytes(&e->out, field, e->msg.buf, e->msg.len);
}

static int encode_header(struct encoder *e)
{
	const struct pprof_opts *o = e->o;
	int err = put_bytes(&e->strings, PROFILE_STRING_TABLE, "", 0);

	for (int i = 0; i < o->nvalues && !err; i++)
		err = encode_value_type(e, PROFILE_SAMPLE_TYPE, o->types[i], o->units[i]);
	if (!err && o->period_type)
		err = encode_value_type(e, PROFILE_PERIOD_TYPE, o->period_type, o->period_unit)
			      ?: put_uint(&e->out, PROFILE_PERIOD, o->period);
	err = err ?: put_uint(&e->out, PROFILE_TIME_NANOS, o->time_nanos);
	return err ?: put_uint(&e->out, PROFILE_DURATION_NANOS, o->duration_nanos);
}

static int gzip_out(const struct sbuf *a, const struct sbuf *b, FILE *out)
{
	int fd = dup(fileno(out)), err = 0;
	gzFile gz;

	if (fd < 0)
		return -errno;
	fflush(out);
	gz = gzdopen(fd, "wb");
	if (!gz) {
		close(fd);
		return -ENOMEM;
	}
	if ((a->len && gzwrite(gz, a->buf, a->len) != (int)a->len) ||
	    (b->len && gzwrite(gz, b->buf, b->len) != (int)b->len))
		err = -EIO;
	if (gzclose(gz) != Z_OK && !err)
		err = -EIO;
	return err;
}

static void encoder_release(struct encoder *e)
{
	sbuf_release(&e->out);
	sbuf_release(&e->strings);
	sbuf_release(&e->msg);
	sbuf_release(&e->ids);
	sbuf_release(&e->vals);
	sbuf_release(&e->fn);
	sbuf_release(&e->line);
	free(e->strtab.slots);
	free(e->frames.slots);
}

int pprof_write(struct folded *f, const struct pprof_opts *o, FILE *out)
{
	struct encoder e = { .out = SBUF_INIT, .o = o };
	const struct folded_entry *ent;
	size_t iter = 0;
	int err;

	if (o->nvalues < 1 || o->nvalues > 2)
		return -EINVAL;
	err = encode_header(&e);
	while (!err && (ent = folded_next(f, &iter)))
		err = encode_sample(&e, ent);
	if (!err)
		err = gzip_out(&e.out, &e.strings, out);
	encoder_release(&e);
	return err;
}

static const struct {
	const char *kind;
	struct pprof_opts o;
} kinds[] = {
	{ "oncpu",
	  { .nvalues = 2,
	    .types = { "samples", "cpu" },
	    .units = { "count", "nanoseconds" },
	    .scale = { 1, 0 },
	    .period_type = "cpu",
	    .period_unit = "nanoseconds" } },
	{ "offcpu",
	  { .nvalues = 1, .types = { "off_cpu" }, .units = { "nanoseconds" }, .scale = { 1000 } } },
	{ "alloc",
	  { .nvalues = 1, .types = { "alloc_space" }, .units = { "bytes" }, .scale = { 1 } } },
	{ "live",
	  { .nvalues = 1, .types = { "inuse_space" }, .units = { "bytes" }, .scale = { 1 } } },
	{ "samples",
	  { .nvalues = 1, .types = { "samples" }, .units = { "count" }, .scale = { 1 } } },
};

int pprof_opts_for_kind(struct pprof_opts *o, const char *kind, unsigned int freq)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kinds[i].kind, kind))
			continue;
		*o = kinds[i].o;
		if (o->period_type) { /* on-CPU: a sample is worth one period of 1/freq s */
			if (!freq || freq > 1000000000u)
				return -EINVAL;
			o->period = o->scale[1] = 1000000000 / freq;
		}
		return 0;
	}
	return -EINVAL;
}
