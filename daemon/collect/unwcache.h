/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unwcache.h - which unwind tables are loaded: one per ELF file (found by device/inode, then
 * build-id), each holding a range of the kernel's row array and a table id, evicted least
 * recently used first when the rows run out. Bookkeeping only: no map, no file.
 */
#ifndef EMBER_UNWCACHE_H
#define EMBER_UNWCACHE_H

#include <stddef.h>
#include <stdint.h>

#define UNWCACHE_BUILD_ID_MAX 20
#define UNWCACHE_MAX_SEGS 8

/* A PT_LOAD segment, to turn a mapping's file offset into ELF addresses. */
struct unwcache_seg {
	uint64_t offset, vaddr, filesz;
};

struct unwcache_entry {
	uint64_t dev, ino;
	uint8_t build_id[UNWCACHE_BUILD_ID_MAX];
	size_t build_id_len;
	uint32_t table_id;  /* UNW_TABLE_NONE: no table (no CFI, or it could not be built) */
	uint32_t row_start; /* rows [row_start, row_start + nrows) of the kernel's array */
	uint32_t nrows;
	uint32_t gen;       /* different for every table added: tells a reused table id apart */
	uint64_t last_used; /* a tick: larger is more recent */
	struct unwcache_seg segs[UNWCACHE_MAX_SEGS];
	int nsegs;
};

struct unwcache;

/* Called for an entry about to be evicted, before its rows and table id are reused. */
typedef void (*unwcache_evict_fn)(void *ctx, const struct unwcache_entry *e);

/* A cache of tables in nrows rows with ntables table ids. NULL on ENOMEM. */
struct unwcache *unwcache_new(uint32_t nrows, uint32_t ntables, unwcache_evict_fn evict, void *ctx);
void unwcache_free(struct unwcache *c);

/* The entry of a file, by device/inode or by build-id (len 0: none), or NULL. */
struct unwcache_entry *unwcache_find(struct unwcache *c, uint64_t dev, uint64_t ino);
struct unwcache_entry *unwcache_find_build_id(struct unwcache *c, const uint8_t *id, size_t len);

/* Another device/inode for the same file contents (same build-id). Returns 0 or -ENOMEM. */
int unwcache_alias(struct unwcache *c, struct unwcache_entry *e, uint64_t dev, uint64_t ino);

/*
 * Add an entry for a file (tmpl's dev, ino, build-id, segments) with nrows rows (0: a file
 * without a table, remembered so it is not built again). Rows and a table id are taken from
 * the free ones, evicting least recently used entries as needed. Returns the entry (its
 * copy of tmpl with row_start, table_id set), or NULL: -E2BIG nrows can never fit, -ENOMEM.
 */
struct unwcache_entry *unwcache_add(struct unwcache *c, const struct unwcache_entry *tmpl,
				    uint32_t nrows, int *err);

/* Remove an entry the owner could not use (its table failed to load): no eviction call. */
void unwcache_forget(struct unwcache *c, struct unwcache_entry *e);

/* Mark e used at tick now. */
void unwcache_touch(struct unwcache_entry *e, uint64_t now);

struct unwcache_stats {
	uint64_t entries, tables, rows_used, evictions;
};
void unwcache_stats(const struct unwcache *c, struct unwcache_stats *st);

#endif
