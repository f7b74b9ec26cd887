/* SPDX-License-Identifier: BSD-2-Clause */
/* namemap.h - frame name -> string, for palette maps (--cp) and name attributes (--nameattr) */
#ifndef EMBER_NAMEMAP_H
#define EMBER_NAMEMAP_H

#include <stddef.h>

struct namemap;

struct namemap *namemap_new(void);
void namemap_free(struct namemap *m);

/* The value for name (len bytes), or NULL. */
const char *namemap_get(const struct namemap *m, const char *name, size_t len);
/* Set name's value (both copied), replacing any. Returns 0 or -ENOMEM. */
int namemap_set(struct namemap *m, const char *name, size_t len, const char *value);

/* Entries sorted by name: n of them in *names and *values, valid until the next set. -ENOMEM. */
int namemap_sorted(struct namemap *m, const char ***names, const char ***values, size_t *n);

#endif
