/* SPDX-License-Identifier: BSD-2-Clause */
/* unwcache.c - which unwind tables are loaded, where their rows are, and which go first */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/unwind_maps.h"
#include "daemon/collect/unwcache.h"

struct extent {
	uint32_t start, len;
};

/* A device/inode naming an entry: several when files share a build-id. */
struct unwcache_key {
	uint64_t dev, ino;
	struct unwcache_entry *e;
};

struct unwcache {
	struct unwcache_entry **entries;
	size_t nentries, cap_entries;
	struct unwcache_key *keys;
	size_t nkeys, cap_keys;
	struct extent *free_rows; /* sorted by start, never adjacent */
	size_t nfree, cap_free;
	uint32_t *free_ids; /* a stack */
	uint32_t nfree_ids;
	uint32_t nrows;
	uint64_t evictions;
	uint32_t gen;
	unwcache_evict_fn evict;
	void *ctx;
};

/* Make room for one more element in a growing array. Returns 0 or -ENOMEM. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct unwcache *unwcache_new(uint32_t nrows, uint32_t ntables, unwcache_evict_fn evict, void *ctx)
{
	struct unwcache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->free_ids = calloc(ntables ? ntables : 1, sizeof(*c->free_ids));
	if (!c->free_ids || grow((void **)&c->free_rows, &c->cap_free, 0, sizeof(struct extent))) {
		unwcache_free(c);
		return NULL;
	}
	for (uint32_t i = 0; i < ntables; i++)
		c->free_ids[i] = ntables - 1 - i; /* id 0 is handed out first */
	c->nfree_ids = ntables;
	if (nrows)
		c->free_rows[c->nfree++] = (struct extent){ 0, nrows };
	c->nrows = nrows;
	c->evict = evict;
	c->ctx = ctx;
	return c;
}

void unwcache_free(struct unwcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nentries; i++)
		free(c->entries[i]);
	free(c->entries);
	free(c->keys);
	free(c->free_rows);
	free(c->free_ids);
	free(c);
}

struct unwcache_entry *unwcache_find(struct unwcache *c, uint64_t dev, uint64_t ino)
{
	for (size_t i = 0; i < c->nkeys; i++)
		if (c->keys[i].dev == dev && c->keys[i].ino == ino)
			return c->keys[i].e;
	return NULL;
}

struct unwcache_entry *unwcache_find_build_id(struct unwcache *c, const uint8_t *id, size_t len)
{
	if (len == 0)
		return NULL;
	for (size_t i = 0; i < c->nentries; i++)
		if (c->entries[i]->build_id_len == len && !memcmp(c->entries[i]->build_id, id, len))
			return c->entries[i];
	return NULL;
}

int unwcache_alias(struct unwcache *c, struct unwcache_entry *e, uint64_t dev, uint64_t ino)
{
	if (grow((void **)&c->keys, &c->cap_keys, c->nkeys, sizeof(*c->keys)))
		return -ENOMEM;
	c->keys[c->nkeys++] = (struct unwcache_key){ dev, ino, e };
	return 0;
}

void unwcache_touch(struct unwcache_entry *e, uint64_t now)
{
	e->last_used = now;
}

/* First fit. Returns 0 with *start set, or -ENOSPC. */
static int rows_get(struct unwcache *c, uint32_t n, uint32_t *start)
{
	for (size_t i = 0; i < c->nfree; i++) {
		struct extent *x = &c->free_rows[i];

		if (x->len < n)
			continue;
		*start = x->start;
		x->start += n;
		x->len -= n;
		if (x->len == 0)
			memmove(x, x + 1, (--c->nfree - i) * sizeof(*x));
		return 0;
	}
	return -ENOSPC;
}

/* Give rows back, merged with their free neighbours. Returns 0 or -ENOMEM. */
static int rows_put(struct unwcache *c, uint32_t start, uint32_t n)
{
	size_t i = 0;
	struct extent *x;

	while (i < c->nfree && c->free_rows[i].start < start)
		i++;
	if (i > 0 && c->free_rows[i - 1].start + c->free_rows[i - 1].len == start) {
		x = &c->free_rows[i - 1];
		x->len += n;
		if (i < c->nfree && x->start + x->len == c->free_rows[i].start) {
			x->len += c->free_rows[i].len;
			memmove(&c->free_rows[i], &c->free_rows[i + 1],
				(--c->nfree - i) * sizeof(*x));
		}
		return 0;
	}
	if (i < c->nfree && start + n == c->free_rows[i].start) {
		c->free_rows[i].start = start;
		c->free_rows[i].len += n;
		return 0;
	}
	if (grow((void **)&c->free_rows, &c->cap_free, c->nfree, sizeof(*x)))
		return -ENOMEM;
	memmove(&c->free_rows[i + 1], &c->free_rows[i], (c->nfree++ - i) * sizeof(*x));
	c->free_rows[i] = (struct extent){ start, n };
	return 0;
}

/* The least recently used entry holding a table, or -1. */
static long lru_table(const struct unwcache *c)
{
	long best = -1;

	for (size_t i = 0; i < c->nentries; i++)
		if (c->entries[i]->nrows &&
		    (best < 0 || c->entries[i]->last_used < c->entries[best]->last_used))
			best = (long)i;
	return best;
}

static void drop_keys(struct unwcache *c, const struct unwcache_entry *e)
{
	size_t kept = 0;

	for (size_t i = 0; i < c->nkeys; i++)
		if (c->keys[i].e != e)
			c->keys[kept++] = c->keys[i];
	c->nkeys = kept;
}

/* Remove entry i, its rows and id free again; the owner is told first when notify is set. */
static int evict(struct unwcache *c, size_t i, int notify)
{
	struct unwcache_entry *e = c->entries[i];
	int err;

	if (notify)
		c->evict(c->ctx, e);
	if (e->nrows) {
		err = rows_put(c, e->row_start, e->nrows);
		if (err)
			return err;
		c->free_ids[c->nfree_ids++] = e->table_id;
	}
	drop_keys(c, e);
	c->entries[i] = c->entries[--c->nentries];
	free(e);
	c->evictions += notify;
	return 0;
}

void unwcache_forget(struct unwcache *c, struct unwcache_entry *e)
{
	for (size_t i = 0; i < c->nentries; i++)
		if (c->entries[i] == e) {
			evict(c, i, 0);
			return;
		}
}

/* Rows and a table id for a new table, evicting as needed. Returns 0 or -errno. */
static int take_space(struct unwcache *c, uint32_t nrows, uint32_t *start, uint32_t *id)
{
	if (nrows > c->nrows)
		return -E2BIG;
	while (!c->nfree_ids || rows_get(c, nrows, start)) {
		long victim = lru_table(c);
		int err;

		if (victim < 0)
			return -E2BIG;
		err = evict(c, (size_t)victim, 1);
		if (err)
			return err;
	}
	*id = c->free_ids[--c->nfree_ids];
	return 0;
}

struct unwcache_entry *unwcache_add(struct unwcache *c, const struct unwcache_entry *tmpl,
				    uint32_t nrows, int *err)
{
	struct unwcache_entry *e = malloc(sizeof(*e));

	*err = -ENOMEM;
	if (!e || grow((void **)&c->entries, &c->cap_entries, c->nentries, sizeof(e)) ||
	    grow((void **)&c->keys, &c->cap_keys, c->nkeys, sizeof(*c->keys)))
		goto cleanup;
	*e = *tmpl;
	e->nrows = nrows;
	e->row_start = 0;
	e->table_id = UNW_TABLE_NONE;
	e->gen = ++c->gen;
	if (nrows) {
		*err = take_space(c, nrows, &e->row_start, &e->table_id);
		if (*err)
			goto cleanup;
	}
	c->entries[c->nentries++] = e;
	c->keys[c->nkeys++] = (struct unwcache_key){ e->dev, e->ino, e };
	*err = 0;
	return e;
cleanup:
	free(e);
	return NULL;
}

void unwcache_stats(const struct unwcache *c, struct unwcache_stats *st)
{
	*st = (struct unwcache_stats){ .entries = c->nentries, .evictions = c->evictions };
	for (size_t i = 0; i < c->nentries; i++) {
		st->tables += c->entries[i]->nrows > 0;
		st->rows_used += c->entries[i]->nrows;
	}
}
