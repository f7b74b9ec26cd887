/* SPDX-License-Identifier: BSD-2-Clause */
/* diff.c - two folded profiles side by side, in one hash table of borrowed stacks */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/hash.h"
#include "lib/sbuf.h"
#include "render/diff.h"
#include "render/fgnum.h"

#define FLUSH_AT (256 * 1024)
#define COPY_CHUNK (1u << 20)

struct diff_entry {
	const char *stack;
	size_t len;
	uint64_t hash;
	double count[2];
};

struct copy_chunk {
	struct copy_chunk *next;
	char data[];
};

struct diff {
	struct diff_opts o;
	struct diff_entry *v; /* in the order first seen */
	size_t n, cap;
	uint64_t *slots; /* hash's top half << 32 | index + 1 into v; 0: empty */
	size_t nslots;
	double total[2];
	struct copy_chunk *copies; /* stacks with hex stripped */
	struct sbuf tmp;
};

struct diff *diff_new(const struct diff_opts *o)
{
	struct diff *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->o = *o;
	d->nslots = 1024;
	d->slots = calloc(d->nslots, sizeof(*d->slots));
	if (!d->slots) {
		free(d);
		return NULL;
	}
	return d;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	while (d->copies) {
		struct copy_chunk *next = d->copies->next;

		free(d->copies);
		d->copies = next;
	}
	sbuf_release(&d->tmp);
	free(d->slots);
	free(d->v);
	free(d);
}

/* Rehash into nslots (a power of two). Returns 0 or -ENOMEM. */
static int rehash(struct diff *d, size_t nslots)
{
	uint64_t *ns = calloc(nslots, sizeof(*ns));

	if (!ns || d->n >= UINT32_MAX / 2) {
		free(ns);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->n; i++) {
		size_t j = d->v[i].hash & (nslots - 1);

		while (ns[j])
			j = (j + 1) & (nslots - 1);
		ns[j] = (d->v[i].hash & 0xffffffff00000000ull) | ((uint64_t)i + 1);
	}
	free(d->slots);
	d->slots = ns;
	d->nslots = nslots;
	return 0;
}

static int grow(struct diff *d)
{
	return rehash(d, d->nslots * 2);
}

/* Room for want entries in all, so that a big input is not rehashed again and again. */
static int reserve(struct diff *d, size_t want)
{
	size_t nslots = d->nslots;
	struct diff_entry *nv;

	if (want > d->cap) {
		nv = realloc(d->v, want * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		d->v = nv;
		d->cap = want;
	}
	while (nslots * 3 < want * 4)
		nslots *= 2;
	return nslots > d->nslots ? rehash(d, nslots) : 0;
}

/* About how many lines text holds, from the length of the lines in its first 64 KiB. */
static size_t estimate_lines(const char *text, size_t len)
{
	size_t sample = len < 65536 ? len : 65536, lines = 0;

	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + sample - p))); p++)
		lines++;
	if (!lines || sample == len)
		return lines + 1;
	return len / (sample / lines) + len / (sample / lines) / 8;
}

static struct diff_entry *append(struct diff *d, const char *stack, size_t len, uint64_t h)
{
	struct diff_entry *e;

	if (d->n == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 4096;
		struct diff_entry *nv = realloc(d->v, ncap * sizeof(*nv));

		if (!nv)
			return NULL;
		d->v = nv;
		d->cap = ncap;
	}
	e = &d->v[d->n++];
	*e = (struct diff_entry){ stack, len, h, { 0, 0 } };
	return e;
}

/* The entry for stack (hash h), new with zero counts if need be; NULL on -ENOMEM. */
static struct diff_entry *lookup(struct diff *d, const char *stack, size_t len, uint64_t h)
{
	uint64_t tag = h & 0xffffffff00000000ull;
	size_t i;

	if ((d->n + 1) * 4 > d->nslots * 3 && grow(d))
		return NULL;
	for (i = h & (d->nslots - 1); d->slots[i]; i = (i + 1) & (d->nslots - 1)) {
		struct diff_entry *e;

		if ((d->slots[i] & 0xffffffff00000000ull) != tag)
			continue;
		e = &d->v[(d->slots[i] & 0xffffffffu) - 1];
		if (e->len == len && !memcmp(e->stack, stack, len))
			return e;
	}
	if (!append(d, stack, len, h))
		return NULL;
	d->slots[i] = tag | d->n;
	return &d->v[d->n - 1];
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "0x" and hex digits become "0x..." in d->tmp. */
static int strip_hex(struct diff *d, const char *s, size_t len)
{
	int err = 0;

	sbuf_setlen(&d->tmp, 0);
	for (size_t k = 0; k < len && !err; k++) {
		if (s[k] == '0' && k + 2 < len && s[k + 1] == 'x' && is_hex(s[k + 2])) {
			err = sbuf_add(&d->tmp, "0x...", 5);
			for (k += 2; k + 1 < len && is_hex(s[k + 1]); k++)
				;
		} else {
			err = sbuf_addch(&d->tmp, s[k]);
		}
	}
	return err;
}

/* A lasting copy of d->tmp for a new entry. NULL on -ENOMEM. */
static const char *keep_copy(struct diff *d)
{
	struct copy_chunk *c = malloc(sizeof(*c) + d->tmp.len + 1);

	if (!c)
		return NULL;
	memcpy(c->data, d->tmp.buf ? d->tmp.buf : "", d->tmp.len);
	c->next = d->copies;
	d->copies = c;
	return c->data;
}

/* One stack and its count, hashed ahead so that its slot can be fetched ahead. */
struct pending {
	const char *stack;
	size_t len;
	double count;
	uint64_t hash;
};

static int add(struct diff *d, int side, const struct pending *pd)
{
	const char *stack = pd->stack;
	size_t len = pd->len, n = d->n;
	uint64_t h = pd->hash;
	struct diff_entry *e;

	if (d->o.strip_hex) {
		if (strip_hex(d, stack, len))
			return -ENOMEM;
		stack = d->tmp.buf ? d->tmp.buf : "";
		len = d->tmp.len;
		h = ember_hash(stack, len);
	}
	e = lookup(d, stack, len, h);
	if (!e)
		return -ENOMEM;
	if (d->n > n && d->o.strip_hex && !(e->stack = keep_copy(d)))
		return -ENOMEM;
	e->count[side] += pd->count;
	d->total[side] += pd->count;
	return 0;
}

/*
 * Lines are added one behind: while one is looked up, the next one's slot is already on its way
 * from memory (the table is far larger than the caches).
 */
int diff_add_text(struct diff *d, int side, const char *text, size_t len, uint64_t *ignored)
{
	const char *p = text, *end = text + len;
	struct pending cur, next;
	size_t est;
	int have = 0;

	est = estimate_lines(text, len);
	/* the second profile mostly repeats the first one's stacks */
	if (reserve(d, (d->n > est ? d->n : est) + (d->n < est ? d->n : est) / 4))
		return -ENOMEM;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct folded_line fl;

		if (folded_parse_line(p, llen, &fl) == 0) {
			next = (struct pending){ fl.stack, fl.stack_len, fl.counts[fl.ncounts - 1],
						 ember_hash(fl.stack, fl.stack_len) };
			__builtin_prefetch(&d->slots[next.hash & (d->nslots - 1)]);
			if (have && add(d, side, &cur))
				return -ENOMEM;
			cur = next;
			have = 1;
		} else if (llen && !(llen == 1 && p[0] == '\r')) {
			(*ignored)++;
		}
		p += llen + 1;
	}
	return have ? add(d, side, &cur) : 0;
}

static void put_count(struct sbuf *sb, double c)
{
	char num[FGNUM_MAX + 1];

	num[0] = ' ';
	sbuf_add(sb, num, 1 + fgnum_perl(num + 1, c));
}

int diff_write(struct diff *d, FILE *out)
{
	double scale_num = d->total[1], scale_den = d->total[0];
	int normalize = d->o.normalize && scale_num != scale_den && scale_den > 0;
	struct sbuf sb = SBUF_INIT;
	int err = 0;

	for (size_t i = 0; i < d->n && !err; i++) {
		const struct diff_entry *e = &d->v[i];
		/* difffolded.pl: int(count1 * total2 / total1) */
		double c0 = normalize ? trunc(e->count[0] * scale_num / scale_den) : e->count[0];

		if (sbuf_grow(&sb, e->len + 2 * FGNUM_MAX + 3)) {
			err = -ENOMEM;
			break;
		}
		sbuf_add(&sb, e->stack, e->len);
		put_count(&sb, c0);
		put_count(&sb, e->count[1]);
		sbuf_addch(&sb, '\n');
		if (sb.len >= FLUSH_AT) {
			err = fwrite(sb.buf, 1, sb.len, out) == sb.len ? 0 : -EIO;
			sbuf_setlen(&sb, 0);
		}
	}
	if (!err && sb.len && fwrite(sb.buf, 1, sb.len, out) != sb.len)
		err = -EIO;
	sbuf_release(&sb);
	return err;
}
