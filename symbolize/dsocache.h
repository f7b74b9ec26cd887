/* SPDX-License-Identifier: BSD-2-Clause */
/* dsocache.h - ELF files shared by all processes, keyed by file identity and build-id */
#ifndef EMBER_DSOCACHE_H
#define EMBER_DSOCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbolize/debugfile.h"
#include "symbolize/debuginfod.h"
#include "symbolize/elfsyms.h"
#include "lib/htab.h"
#include "symbolize/inlines.h"

struct dso_key {
	uint64_t dev, ino, size;
	int64_t mtime_ns;
};

/* Symbols shared by every file with the same build-id. */
struct symset {
	struct hnode node;
	struct elfsyms *es;
	struct inlines *inl; /* DWARF for inlined frames, when asked for and present */
	enum debugfile_via debug_via;
	int refs;
	/* The first file's trust: another file with this build-id shares the symbols only if alike. */
	uid_t owner;
	uint64_t size, phdrs_hash;
};

struct dso {
	struct hnode node;
	struct lru idle; /* in the idle list while no process maps it */
	struct dso_key key;
	struct symset *set; /* NULL: not ELF, unreadable, or not read yet */
	char *name;         /* base name, for module+0xOFFSET */
	int refs;           /* processes mapping it */
	int load_err;       /* why set is NULL (-errno), for stats */
	int fd;             /* >= 0: symbols not read yet; read from this fd when needed */
	char *path;         /* while fd is open: the path, to find debug files */
};

struct dsocache;

struct dsocache_stats {
	uint64_t dsos, symsets, loads, shared_by_build_id, debug_files, bytes;
	uint64_t pending, cap;
};

/*
 * cap: idle files kept (0: default); debug_root: "/usr/lib/debug" if NULL;
 * inlines: also open each file's DWARF (its own or its debug file's) for inlined frames.
 */
struct dsocache *dsocache_new(size_t cap, const char *debug_root, int inlines);
void dsocache_free(struct dsocache *c);
/* Ask di (owned by the caller) for the debug files of stripped files found nowhere local. */
void dsocache_set_debuginfod(struct dsocache *c, struct dinfod *di);

/*
 * The file open on fd (mapped from path) with a reference taken: found by
 * device, inode, size and mtime, else by build-id; else its symbols are read
 * at the first address looked up in it (dsocache_symbols), from a copy of fd
 * kept until then. A file that is not ELF or cannot be read still gets a dso
 * (set == NULL) so that frames in it are written name+0xOFFSET. Returns 0 or
 * -errno (out of memory, fstat).
 */
int dsocache_get(struct dsocache *c, int fd, const char *path, struct dso **out);
/* The symbols of d, read now if they were not yet; NULL when there are none. */
struct symset *dsocache_symbols(struct dsocache *c, struct dso *d);
/* The file of identity k, with a reference taken, or NULL when it was never read. */
struct dso *dsocache_find(struct dsocache *c, const struct dso_key *k);
/* One more reference to d, which the caller holds already. */
void dsocache_hold(struct dsocache *c, struct dso *d);
/* The vDSO of the running kernel (read from our own process), or NULL. */
struct dso *dsocache_vdso(struct dsocache *c);
void dsocache_put(struct dsocache *c, struct dso *d);
/* Drop idle files beyond the cap, least recently used first. */
void dsocache_trim(struct dsocache *c);
void dsocache_get_stats(const struct dsocache *c, struct dsocache_stats *st);

#endif
