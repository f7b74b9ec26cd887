/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dsocache.c - ELF files shared by all processes, keyed by file identity and build-id
 *
 * Every mapping of every process points at a `struct dso`, found by the file's identity
 * (device, inode, size, mtime as fstat shows it) so that 200 processes a second running
 * the same binary cost one fstat each, not one ELF read. The symbols themselves live in a
 * `struct symset`, shared by build-id: two copies of one library (a container's and the
 * host's) share one table.
 *
 * Reading symbols is the expensive part, and most files mapped by a process are never
 * sampled, so it is lazy: a new file keeps an open descriptor (at most
 * DSOCACHE_MAX_PENDING; beyond that it is read at once) and is read at its first lookup.
 * A file without .symtab gets its symbols from its debug file (by build-id, debuglink,
 * MiniDebugInfo, then debuginfod when configured), checked against the build-id.
 *
 * Files no process holds any more go to an idle LRU list capped at `cap`; the vDSO is
 * read once from our own memory, since it is the same image in every process.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/dsocache.h"

#define DSOCACHE_DEFAULT_CAP 2048
#define DSOCACHE_VDSO_MAX (1u << 20)
/* Files kept open until their symbols are needed; beyond this they are read at once. */
#define DSOCACHE_MAX_PENDING 256

struct dsocache {
	struct htab by_key, by_build_id;
	struct lru idle;
	size_t cap, nidle, npending;
	char *debug_root;
	struct dso *vdso;
	struct dinfod *dinfod;
	int vdso_tried, inlines;
	uint64_t loads, shared, debug_files;
};

struct dsocache *dsocache_new(size_t cap, const char *debug_root, int inlines)
{
	struct dsocache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->debug_root = strdup(debug_root ? debug_root : "/usr/lib/debug");
	if (!c->debug_root) {
		free(c);
		return NULL;
	}
	c->cap = cap ? cap : DSOCACHE_DEFAULT_CAP;
	c->inlines = inlines;
	htab_init(&c->by_key);
	htab_init(&c->by_build_id);
	lru_init(&c->idle);
	return c;
}

static uint64_t dsocache_key_hash(const struct dso_key *k)
{
	return htab_hash_bytes(k, sizeof(*k));
}

void dsocache_set_debuginfod(struct dsocache *c, struct dinfod *di)
{
	c->dinfod = di;
}

static void dsocache_put_set(struct dsocache *c, struct symset *set)
{
	if (!set || --set->refs > 0)
		return;
	if (elfsyms_info(set->es)->build_id_len)
		htab_remove(&c->by_build_id, &set->node);
	elfsyms_free(set->es);
	inlines_free(set->inl);
	free(set);
}

static void dsocache_unpend(struct dsocache *c, struct dso *d)
{
	if (d->fd < 0)
		return;
	close(d->fd);
	d->fd = -1;
	free(d->path);
	d->path = NULL;
	c->npending--;
}

static void dsocache_destroy(struct dsocache *c, struct dso *d)
{
	if (d != c->vdso)
		htab_remove(&c->by_key, &d->node);
	dsocache_unpend(c, d);
	dsocache_put_set(c, d->set);
	free(d->name);
	free(d);
}

void dsocache_free(struct dsocache *c)
{
	if (!c)
		return;
	/* Processes hold no references any more: every file is idle. */
	while (c->idle.next != &c->idle) {
		struct dso *d = lru_entry(c->idle.next, struct dso, idle);

		lru_unlink(&d->idle);
		dsocache_destroy(c, d);
	}
	if (c->vdso)
		dsocache_destroy(c, c->vdso);
	htab_release(&c->by_key);
	htab_release(&c->by_build_id);
	free(c->debug_root);
	free(c);
}

/* What makes two files with one build-id alike enough to share symbols. */
struct file_trust {
	uid_t owner;
	uint64_t size, phdrs_hash;
};

/* The owner, the size and a hash of the program headers of the ELF file open at fd. */
static int dsocache_trust(int fd, struct file_trust *t)
{
	unsigned char ph[64 * sizeof(Elf64_Phdr)];
	Elf64_Ehdr eh;
	struct stat st;
	size_t len;

	if (fstat(fd, &st))
		return -errno;
	t->owner = st.st_uid;
	t->size = (uint64_t)st.st_size;
	t->phdrs_hash = 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		return 0; /* sizes and owners still decide */
	len = (size_t)eh.e_phnum * eh.e_phentsize;
	if (len > sizeof(ph))
		len = sizeof(ph);
	if (pread(fd, ph, len, (off_t)eh.e_phoff) == (ssize_t)len)
		t->phdrs_hash = htab_hash_bytes(ph, len);
	return 0;
}

/*
 * The symbols already read for build-id id, if the file that gave them deserves the trust
 * of this one: a user's ELF that carries another binary's build-id with fake symbols must
 * not name the frames of the real file. Alike: same size and program headers, and the
 * first file was root's or this file's owner's.
 */
static struct symset *dsocache_find_set(struct dsocache *c, const uint8_t *id, size_t len,
					const struct file_trust *t)
{
	for (struct hnode *n = htab_first(&c->by_build_id, htab_hash_bytes(id, len)); n;
	     n = htab_next(n)) {
		struct symset *s = (struct symset *)n;
		const struct elfsyms_info *info = elfsyms_info(s->es);

		if (info->build_id_len != len || memcmp(info->build_id, id, len))
			continue;
		if (s->size == t->size && s->phdrs_hash == t->phdrs_hash &&
		    (s->owner == 0 || s->owner == t->owner))
			return s;
	}
	return NULL;
}

/* The debug file of info: local, else from debuginfod (checked against the build-id). */
static int dsocache_debug_fd(struct dsocache *c, int binfd, const char *path,
			     const struct elfsyms_info *info, enum debugfile_via *via)
{
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	struct stat st;
	int fd;

	if (fstat(binfd, &st))
		return -errno;
	fd = debugfile_open(c->debug_root, path, info, st.st_uid, via);

	if (fd >= 0 || !c->dinfod || !info->build_id_len)
		return fd;
	fd = dinfod_find(c->dinfod, info->build_id, info->build_id_len);
	if (fd < 0)
		return fd;
	if (elfsyms_read_build_id(fd, id, sizeof(id)) != (int)info->build_id_len ||
	    memcmp(id, info->build_id, info->build_id_len)) {
		close(fd);
		return -ENOENT;
	}
	*via = DEBUGFILE_DEBUGINFOD;
	return fd;
}

/* Read the symbols of fd, from a debug file when the binary has no .symtab. */
static int dsocache_load_set(struct dsocache *c, int fd, const char *path, struct symset **out)
{
	const struct elfsyms_info *info;
	struct symset *set = calloc(1, sizeof(*set));
	int err, dfd;

	if (!set)
		return -ENOMEM;
	err = elfsyms_load_fd(fd, &set->es);
	if (err) {
		free(set);
		return err;
	}
	info = elfsyms_info(set->es);
	if (!info->has_symtab &&
	    (dfd = dsocache_debug_fd(c, fd, path, info, &set->debug_via)) >= 0) {
		if (elfsyms_use_debug_fd(set->es, dfd))
			set->debug_via = DEBUGFILE_NONE;
		else
			c->debug_files++;
		if (c->inlines && set->debug_via != DEBUGFILE_NONE)
			set->inl = inlines_open(dfd);
		close(dfd);
	}
	if (c->inlines && !set->inl)
		set->inl = inlines_open(fd);
	if (info->build_id_len &&
	    htab_insert(&c->by_build_id, &set->node,
			htab_hash_bytes(info->build_id, info->build_id_len))) {
		elfsyms_free(set->es);
		free(set);
		return -ENOMEM;
	}
	set->refs = 1;
	c->loads++;
	*out = set;
	return 0;
}

/*
 * The symbols already read for fd's build-id, when the files are alike (*out NULL when there
 * are none); t gets fd's trust. Returns 0 or -errno.
 */
static int dsocache_shared(struct dsocache *c, int fd, struct file_trust *t, struct symset **out)
{
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	int len = elfsyms_read_build_id(fd, id, sizeof(id)), err;

	*out = NULL;
	if (len < 0)
		return len;
	err = dsocache_trust(fd, t);
	if (err || !len)
		return err;
	*out = dsocache_find_set(c, id, (size_t)len, t);
	if (*out) {
		(*out)->refs++;
		c->shared++;
	}
	return 0;
}

static int dsocache_symset(struct dsocache *c, int fd, const char *path, struct symset **out)
{
	struct file_trust t;
	int err = dsocache_shared(c, fd, &t, out);

	if (err || *out)
		return err;
	err = dsocache_load_set(c, fd, path, out);
	if (!err) {
		(*out)->owner = t.owner;
		(*out)->size = t.size;
		(*out)->phdrs_hash = t.phdrs_hash;
	}
	return err;
}

static struct dso *dsocache_new_dso(const char *path)
{
	const char *base = strrchr(path, '/');
	struct dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup(base ? base + 1 : path);
	if (!d->name) {
		free(d);
		return NULL;
	}
	lru_init(&d->idle);
	d->fd = -1;
	return d;
}

static struct dso *dsocache_lookup(struct dsocache *c, const struct dso_key *k)
{
	for (struct hnode *n = htab_first(&c->by_key, dsocache_key_hash(k)); n; n = htab_next(n))
		if (!memcmp(&((struct dso *)n)->key, k, sizeof(*k)))
			return (struct dso *)n;
	return NULL;
}

static void dsocache_ref(struct dsocache *c, struct dso *d)
{
	if (d->refs++ == 0 && d->idle.next != &d->idle) {
		lru_unlink(&d->idle);
		c->nidle--;
	}
}

/* Keep a copy of fd to read the symbols later; 0, or -errno to read them now. */
static int dsocache_pend(struct dsocache *c, struct dso *d, int fd, const char *path)
{
	if (c->npending >= DSOCACHE_MAX_PENDING)
		return -EMFILE;
	d->path = strdup(path);
	if (!d->path)
		return -ENOMEM;
	d->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (d->fd < 0) {
		free(d->path);
		d->path = NULL;
		return -errno;
	}
	c->npending++;
	return 0;
}

/* A new file: its build-id's symbols if known, else read later (or now, past the cap). */
static int dsocache_attach(struct dsocache *c, struct dso *d, int fd, const char *path)
{
	struct file_trust t;
	int err = dsocache_shared(c, fd, &t, &d->set);

	if (err || d->set)
		return err;
	if (dsocache_pend(c, d, fd, path) == 0)
		return 0;
	return dsocache_symset(c, fd, path, &d->set);
}

int dsocache_get(struct dsocache *c, int fd, const char *path, struct dso **out)
{
	struct dso_key k = { 0 };
	struct stat st;
	struct dso *d;
	int err;

	if (fstat(fd, &st))
		return -errno;
	k = (struct dso_key){ st.st_dev, st.st_ino, (uint64_t)st.st_size,
			      st.st_mtim.tv_sec * 1000000000ll + st.st_mtim.tv_nsec };
	d = dsocache_lookup(c, &k);
	if (!d) {
		d = dsocache_new_dso(path);
		if (!d)
			return -ENOMEM;
		d->key = k;
		err = dsocache_attach(c, d, fd, path);
		if (err == -ENOMEM || htab_insert(&c->by_key, &d->node, dsocache_key_hash(&k))) {
			dsocache_unpend(c, d);
			dsocache_put_set(c, d->set);
			free(d->name);
			free(d);
			return -ENOMEM;
		}
		d->load_err = err;
	}
	dsocache_ref(c, d);
	*out = d;
	return 0;
}

struct symset *dsocache_symbols(struct dsocache *c, struct dso *d)
{
	int err;

	if (d->fd < 0)
		return d->set;
	err = dsocache_symset(c, d->fd, d->path, &d->set);
	if (err == -ENOMEM)
		return NULL; /* tried again at the next lookup */
	d->load_err = err;
	dsocache_unpend(c, d);
	return d->set;
}

struct dso *dsocache_find(struct dsocache *c, const struct dso_key *k)
{
	struct dso *d = dsocache_lookup(c, k);

	if (d)
		dsocache_ref(c, d);
	return d;
}

void dsocache_hold(struct dsocache *c, struct dso *d)
{
	if (d && d != c->vdso)
		dsocache_ref(c, d);
}

void dsocache_put(struct dsocache *c, struct dso *d)
{
	if (!d || d == c->vdso || --d->refs > 0)
		return;
	lru_push_front(&c->idle, &d->idle);
	c->nidle++;
}

void dsocache_trim(struct dsocache *c)
{
	while (c->nidle > c->cap) {
		struct dso *d = lru_entry(c->idle.prev, struct dso, idle);

		lru_unlink(&d->idle);
		c->nidle--;
		dsocache_destroy(c, d);
	}
}

/* The vDSO image is whole ELF in memory: its extent comes from its own headers. */
static size_t dsocache_vdso_size(const ElfW(Ehdr) * eh)
{
	const ElfW(Phdr) *ph = (const void *)((const char *)eh + eh->e_phoff);
	size_t size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	return size;
}

struct dso *dsocache_vdso(struct dsocache *c)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct dso *d;
	size_t size;

	if (c->vdso_tried)
		return c->vdso;
	c->vdso_tried = 1;
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return NULL;
	size = dsocache_vdso_size(eh);
	d = dsocache_new_dso("[vdso]");
	if (!d || size > DSOCACHE_VDSO_MAX || !(d->set = calloc(1, sizeof(*d->set))) ||
	    elfsyms_load_mem(eh, size, &d->set->es)) {
		if (d)
			free(d->set);
		free(d ? d->name : NULL);
		free(d);
		return NULL;
	}
	d->set->refs = 1;
	d->refs = 1;
	c->vdso = d;
	return d;
}

void dsocache_get_stats(const struct dsocache *c, struct dsocache_stats *st)
{
	uint64_t bytes = htab_bytes(&c->by_key) + htab_bytes(&c->by_build_id);
	uint64_t unshared = 0;

	memset(st, 0, sizeof(*st));
	/* Sets with a build-id are counted once through their own table. */
	for (size_t i = 0; i < c->by_key.nbuckets; i++) {
		for (struct hnode *n = c->by_key.buckets[i]; n; n = n->next) {
			const struct dso *d = (const struct dso *)n;

			bytes += sizeof(*d) + strlen(d->name) + 1;
			if (d->set && !elfsyms_info(d->set->es)->build_id_len) {
				bytes += sizeof(*d->set) + elfsyms_bytes(d->set->es);
				unshared++;
			}
		}
	}
	for (size_t i = 0; i < c->by_build_id.nbuckets; i++)
		for (struct hnode *n = c->by_build_id.buckets[i]; n; n = n->next)
			bytes += sizeof(struct symset) + elfsyms_bytes(((struct symset *)n)->es);
	st->dsos = c->by_key.count;
	st->symsets = c->by_build_id.count + unshared;
	st->loads = c->loads;
	st->shared_by_build_id = c->shared;
	st->debug_files = c->debug_files;
	st->bytes = bytes;
	st->pending = c->npending;
	st->cap = c->cap;
}
