/* SPDX-License-Identifier: BSD-2-Clause */
/* folded.c - a folded profile: unique stack -> weight, in an open-addressing hash table */
#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include "collapse/folded.h"

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
	struct arena_chunk *arena;
	struct folded_entry *sorted;
};

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, then a final mix */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h ? h : 1;
}

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

int folded_add(struct folded *f, const char *stack, size_t len, uint64_t weight)
{
	uint64_t h = hash_bytes(stack, len);
	size_t i;

	if ((f->count + 1) * 4 > f->cap * 3 && grow(f))
		return -ENOMEM;
	for (i = h & (f->cap - 1); f->slots[i].hash; i = (i + 1) & (f->cap - 1)) {
		struct slot *s = &f->slots[i];

		if (s->hash == h && s->e.len == len && memcmp(s->e.stack, stack, len) == 0) {
			s->e.weight += weight;
			f->total += weight;
			return 0;
		}
	}
	f->slots[i].e.stack = arena_copy(f, stack, len);
	if (!f->slots[i].e.stack)
		return -ENOMEM;
	f->slots[i].hash = h;
	f->slots[i].e.len = len;
	f->slots[i].e.weight = weight;
	f->count++;
	f->total += weight;
	return 0;
}

size_t folded_count(const struct folded *f)
{
	return f->count;
}

uint64_t folded_total(const struct folded *f)
{
	return f->total;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct folded_entry *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->stack, y->stack, n);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

const struct folded_entry *folded_sorted(struct folded *f)
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
	qsort(v, n, sizeof(*v), entry_cmp);
	return v;
}

int folded_write(struct folded *f, FILE *out)
{
	const struct folded_entry *v = folded_sorted(f);

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->count; i++) {
		if (fwrite(v[i].stack, 1, v[i].len, out) != v[i].len ||
		    fprintf(out, " %" PRIu64 "\n", v[i].weight) < 0)
			return -EIO;
	}
	return 0;
}
