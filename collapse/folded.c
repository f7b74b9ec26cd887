/* SPDX-License-Identifier: BSD-2-Clause */
/* folded.c - a folded profile: unique stack -> weight, in an open-addressing hash table */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "lib/hash.h"

#define ARENA_CHUNK (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct slot {
	uint64_t hash; /* 0: empty */
	struct folded_entry e;
};

struct folded {
	struct slot *slots;
	size_t cap, count;
	uint64_t total;
	double total_frac;
	struct arena_chunk *arena;
	struct folded_entry *sorted;
};

static char *arena_copy(struct folded *f, const char *s, size_t len)
{
	struct arena_chunk *c = f->arena;

	if (!c || c->size - c->used < len) {
		size_t size = len > ARENA_CHUNK ? len : ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = f->arena;
		f->arena = c;
	}
	memcpy(c->data + c->used, s, len);
	c->used += len;
	return c->data + c->used - len;
}

struct folded *folded_new(void)
{
	struct folded *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->cap = 1024;
	f->slots = calloc(f->cap, sizeof(*f->slots));
	if (!f->slots) {
		free(f);
		return NULL;
	}
	return f;
}

void folded_free(struct folded *f)
{
	if (!f)
		return;
	while (f->arena) {
		struct arena_chunk *next = f->arena->next;

		free(f->arena);
		f->arena = next;
	}
	free(f->slots);
	free(f->sorted);
	free(f);
}

static int grow(struct folded *f)
{
	size_t ncap = f->cap * 2;
	struct slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < f->cap; i++) {
		struct slot *s = &f->slots[i];
		size_t j;

		if (!s->hash)
			continue;
		for (j = s->hash & (ncap - 1); ns[j].hash; j = (j + 1) & (ncap - 1))
			;
		ns[j] = *s;
	}
	free(f->slots);
	f->slots = ns;
	f->cap = ncap;
	return 0;
}

/* The entry for stack, created with a zero weight if new; NULL on -ENOMEM. */
static struct folded_entry *lookup(struct folded *f, const char *stack, size_t len)
{
	uint64_t h = ember_hash(stack, len);
	size_t i;

	if ((f->count + 1) * 4 > f->cap * 3 && grow(f))
		return NULL;
	for (i = h & (f->cap - 1); f->slots[i].hash; i = (i + 1) & (f->cap - 1)) {
		struct slot *s = &f->slots[i];

		if (s->hash == h && s->e.len == len && memcmp(s->e.stack, stack, len) == 0)
			return &s->e;
	}
	f->slots[i].e.stack = arena_copy(f, stack, len);
	if (!f->slots[i].e.stack)
		return NULL;
	f->slots[i].hash = h;
	f->slots[i].e.len = len;
	f->slots[i].e.weight = 0;
	f->slots[i].e.frac = 0;
	f->count++;
	return &f->slots[i].e;
}

/* Add an integer and a fractional part in [0, 1) to e and the totals. */
static int add_parts(struct folded *f, struct folded_entry *e, uint64_t whole, double frac)
{
	uint64_t carry = 0;

	if (frac > 0) {
		e->frac += frac;
		f->total_frac += frac;
		if (e->frac >= 1) {
			e->frac -= 1;
			carry = 1;
		}
	}
	if (whole > UINT64_MAX - carry || e->weight > UINT64_MAX - whole - carry ||
	    f->total > UINT64_MAX - whole - carry)
		return -EOVERFLOW;
	e->weight += whole + carry;
	f->total += whole + carry;
	f->total_frac -= (double)carry;
	return 0;
}

int folded_add(struct folded *f, const char *stack, size_t len, uint64_t weight)
{
	struct folded_entry *e = lookup(f, stack, len);

	if (!e)
		return -ENOMEM;
	return add_parts(f, e, weight, 0);
}

size_t folded_count(const struct folded *f)
{
	return f->count;
}

uint64_t folded_total(const struct folded *f)
{
	return f->total;
}

static int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static int by_stack(const void *a, const void *b)
{
	const struct folded_entry *x = a, *y = b;

	return bytes_cmp(x->stack, x->len, y->stack, y->len);
}

static int by_weight(const void *a, const void *b)
{
	const struct folded_entry *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	if (x->frac != y->frac)
		return x->frac < y->frac ? 1 : -1;
	return by_stack(a, b);
}

const struct folded_entry *folded_sorted_by(struct folded *f, enum folded_order order)
{
	size_t n = 0;
	struct folded_entry *v;

	v = realloc(f->sorted, (f->count ? f->count : 1) * sizeof(*v));
	if (!v)
		return NULL;
	f->sorted = v;
	for (size_t i = 0; i < f->cap; i++)
		if (f->slots[i].hash)
			v[n++] = f->slots[i].e;
	qsort(v, n, sizeof(*v), order == FOLDED_BY_WEIGHT ? by_weight : by_stack);
	return v;
}

const struct folded_entry *folded_sorted(struct folded *f)
{
	return folded_sorted_by(f, FOLDED_BY_STACK);
}

int folded_format_weight(char *buf, size_t size, uint64_t weight, double frac)
{
	if (frac == 0)
		return snprintf(buf, size, "%" PRIu64, weight);
	/* Perl prints numbers with 15 significant digits; so do flamegraph.pl and difffolded.pl */
	return snprintf(buf, size, "%.15g", (double)weight + frac);
}

int folded_write_by(struct folded *f, FILE *out, enum folded_order order)
{
	const struct folded_entry *v = folded_sorted_by(f, order);
	char num[40];

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->count; i++) {
		int n = folded_format_weight(num, sizeof(num), v[i].weight, v[i].frac);

		if (fwrite(v[i].stack, 1, v[i].len, out) != v[i].len || putc(' ', out) == EOF ||
		    fwrite(num, 1, (size_t)n, out) != (size_t)n || putc('\n', out) == EOF)
			return -EIO;
	}
	return 0;
}

int folded_write(struct folded *f, FILE *out)
{
	return folded_write_by(f, out, FOLDED_BY_STACK);
}

int folded_add_entry(struct folded *f, const struct folded_entry *e)
{
	struct folded_entry *d = lookup(f, e->stack, e->len);

	if (!d)
		return -ENOMEM;
	return add_parts(f, d, e->weight, e->frac);
}

const struct folded_entry *folded_next(const struct folded *f, size_t *iter)
{
	for (; *iter < f->cap; (*iter)++)
		if (f->slots[*iter].hash)
			return &f->slots[(*iter)++].e;
	return NULL;
}
