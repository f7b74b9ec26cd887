/* SPDX-License-Identifier: BSD-2-Clause */
/* htab.c - an intrusive chained hash table keyed by 64-bit hashes */
#include <errno.h>
#include <stdlib.h>

#include "lib/htab.h"

void htab_init(struct htab *h)
{
	h->buckets = NULL;
	h->nbuckets = h->count = 0;
}

void htab_release(struct htab *h)
{
	free(h->buckets);
	htab_init(h);
}

static int htab_resize(struct htab *h, size_t nb)
{
	struct hnode **b = calloc(nb, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < h->nbuckets; i++) {
		struct hnode *n = h->buckets[i], *next;

		for (; n; n = next) {
			next = n->next;
			n->next = b[n->hash & (nb - 1)];
			b[n->hash & (nb - 1)] = n;
		}
	}
	free(h->buckets);
	h->buckets = b;
	h->nbuckets = nb;
	return 0;
}

int htab_insert(struct htab *h, struct hnode *n, uint64_t hash)
{
	struct hnode **slot;

	if (h->count >= h->nbuckets) {
		int err = htab_resize(h, h->nbuckets ? h->nbuckets * 2 : 64);

		if (err)
			return err;
	}
	n->hash = hash;
	slot = &h->buckets[hash & (h->nbuckets - 1)];
	n->next = *slot;
	*slot = n;
	h->count++;
	return 0;
}

void htab_remove(struct htab *h, struct hnode *n)
{
	struct hnode **p;

	if (!h->nbuckets)
		return;
	for (p = &h->buckets[n->hash & (h->nbuckets - 1)]; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			h->count--;
			return;
		}
	}
}

struct hnode *htab_first(const struct htab *h, uint64_t hash)
{
	struct hnode *n;

	if (!h->nbuckets)
		return NULL;
	for (n = h->buckets[hash & (h->nbuckets - 1)]; n && n->hash != hash; n = n->next)
		;
	return n;
}

struct hnode *htab_next(const struct hnode *n)
{
	uint64_t hash = n->hash;

	for (n = n->next; n && n->hash != hash; n = n->next)
		;
	return (struct hnode *)n;
}

size_t htab_bytes(const struct htab *h)
{
	return h->nbuckets * sizeof(*h->buckets);
}

uint64_t htab_hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ull;
	return v ^ (v >> 33);
}

uint64_t htab_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return htab_hash_u64(h);
}
