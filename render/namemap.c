/* SPDX-License-Identifier: BSD-2-Clause */
/* namemap.c - frame name -> string in an open-addressing hash table */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "render/namemap.h"

struct nm_slot {
	uint64_t hash; /* 0: empty */
	char *name;    /* NUL-terminated copy */
	size_t len;
	char *value;
};

struct namemap {
	struct nm_slot *slots;
	size_t cap, count;
	const char **names, **values; /* namemap_sorted() */
};

struct namemap *namemap_new(void)
{
	struct namemap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 64;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void namemap_free(struct namemap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++) {
		free(m->slots[i].name);
		free(m->slots[i].value);
	}
	free(m->slots);
	free(m->names);
	free(m->values);
	free(m);
}

static struct nm_slot *find(const struct namemap *m, const char *name, size_t len, uint64_t h)
{
	size_t i;

	for (i = h & (m->cap - 1); m->slots[i].hash; i = (i + 1) & (m->cap - 1)) {
		struct nm_slot *s = &m->slots[i];

		if (s->hash == h && s->len == len && !memcmp(s->name, name, len))
			break;
	}
	return &m->slots[i];
}

const char *namemap_get(const struct namemap *m, const char *name, size_t len)
{
	return find(m, name, len, ember_hash(name, len))->value;
}

static int grow(struct namemap *m)
{
	struct nm_slot *old = m->slots;
	size_t ocap = m->cap;

	m->slots = calloc(ocap * 2, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -ENOMEM;
	}
	m->cap = ocap * 2;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].hash)
			*find(m, old[i].name, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

int namemap_set(struct namemap *m, const char *name, size_t len, const char *value)
{
	uint64_t h = ember_hash(name, len);
	struct nm_slot *s;
	char *v;

	if ((m->count + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	s = find(m, name, len, h);
	v = strdup(value);
	if (!v)
		return -ENOMEM;
	if (!s->hash) {
		s->name = strndup(name, len);
		if (!s->name) {
			free(v);
			return -ENOMEM;
		}
		s->hash = h;
		s->len = len;
		m->count++;
	}
	free(s->value);
	s->value = v;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct nm_slot *x = *(const struct nm_slot *const *)a;
	const struct nm_slot *y = *(const struct nm_slot *const *)b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

int namemap_sorted(struct namemap *m, const char ***names, const char ***values, size_t *n)
{
	struct nm_slot **v = malloc((m->count + 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].hash)
			v[k++] = &m->slots[i];
	qsort(v, k, sizeof(*v), by_name);
	free(m->names);
	free(m->values);
	m->names = malloc((k + 1) * sizeof(*m->names));
	m->values = malloc((k + 1) * sizeof(*m->values));
	if (!m->names || !m->values) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < k; i++) {
		m->names[i] = v[i]->name;
		m->values[i] = v[i]->value;
	}
	free(v);
	*names = m->names;
	*values = m->values;
	*n = k;
	return 0;
}
