/* SPDX-License-Identifier: BSD-2-Clause */
/* htab.h - an intrusive chained hash table keyed by 64-bit hashes, and an LRU list */
#ifndef EMBER_HTAB_H
#define EMBER_HTAB_H

#include <stddef.h>
#include <stdint.h>

struct hnode {
	struct hnode *next;
	uint64_t hash;
};

struct htab {
	struct hnode **buckets;
	size_t nbuckets, count;
};

/* The caller compares keys: walk candidates with htab_first/htab_next. */
void htab_init(struct htab *h);
void htab_release(struct htab *h);
/* Returns 0 or -ENOMEM (the table is unchanged then). */
int htab_insert(struct htab *h, struct hnode *n, uint64_t hash);
void htab_remove(struct htab *h, struct hnode *n);
struct hnode *htab_first(const struct htab *h, uint64_t hash);
struct hnode *htab_next(const struct hnode *n);
size_t htab_bytes(const struct htab *h);

uint64_t htab_hash_bytes(const void *data, size_t len);
uint64_t htab_hash_u64(uint64_t v);

/* A circular doubly linked list with a sentinel head: most recent first. */
struct lru {
	struct lru *prev, *next;
};

static inline void lru_init(struct lru *head)
{
	head->prev = head->next = head;
}

static inline void lru_unlink(struct lru *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = n->next = n;
}

static inline void lru_push_front(struct lru *head, struct lru *n)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

static inline void lru_touch(struct lru *head, struct lru *n)
{
	if (head->next != n) {
		lru_unlink(n);
		lru_push_front(head, n);
	}
}

#define lru_entry(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#endif
