/* SPDX-License-Identifier: BSD-2-Clause */
/* unwind.c - build unwind tables for the processes sampled and keep the walker's maps filled */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "bpf/unwind.h"
#include "bpf/unwind_maps.h"
#include "daemon/collect/unwcache.h"
#include "daemon/collect/unwind.h"
#include "symbolize/elfsyms.h"
#include "lib/log.h"
#include "symbolize/procmaps.h"
#include "symbolize/cfi.h"

#define UNWIND_QUEUE 65536           /* process events waiting for the thread */
#define UNWIND_FILE_MAX (2ull << 30) /* larger files are not read */
#define UNWIND_REFRESH_SEC 5         /* mapping lists re-read (dlopen) this often */
#define UNWIND_ROW_BYTES 16          /* an array element: the row rounded up to 8 bytes */
#define UNWIND_UPLOAD_BATCH 65536    /* rows per map update */
#define UNWIND_VDSO_INO 0            /* the cache key of the vDSO: no file has inode 0 */

struct unw_event {
	uint32_t type, pid;
};

struct unwind {
	int rows_fd, tables_fd, procs_fd;
	uint32_t nrows;
	struct unwcache *cache; /* the thread's alone */
	uint64_t tick;
	uint32_t *pids; /* processes with a mapping list, re-read every UNWIND_REFRESH_SEC */
	size_t npids, cap_pids;
	struct unw_proc proc; /* the list being written */
	pthread_t thread;
	int started;
	pthread_mutex_t lock; /* what follows */
	pthread_cond_t cond;
	struct unw_event *queue;
	size_t qhead, qlen;
	int stop;
	struct unwind_stats stats;
};

static void stat_add(struct unwind *u, uint64_t *field, uint64_t n)
{
	pthread_mutex_lock(&u->lock);
	*field += n;
	pthread_mutex_unlock(&u->lock);
}

/* An evicted table: the walker stops using it before its rows and id are reused. */
static void on_evict(void *ctx, const struct unwcache_entry *e)
{
	struct unwind *u = ctx;
	struct unw_table none = {};

	bpf_map_update_elem(u->tables_fd, &e->table_id, &none, BPF_ANY);
	log_debug("unwind: table %u (%u rows, inode %llu) evicted", e->table_id, e->nrows,
		  (unsigned long long)e->ino);
}

/* The PT_LOAD segments of the ELF file at fd. Returns 0 or -EBADMSG. */
static int read_segs(int fd, struct unwcache_entry *e)
{
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL); /* not mapped: a truncated file would SIGBUS */
	size_t n = 0;

	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n)) {
		elf_end(elf);
		return -EBADMSG;
	}
	for (size_t i = 0; i < n && e->nsegs < UNWCACHE_MAX_SEGS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			e->segs[e->nsegs++] =
				(struct unwcache_seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	elf_end(elf);
	return e->nsegs ? 0 : -EBADMSG;
}

/* ELF address = user address - bias for a mapping of e at start from file offset pgoff. */
static int mapping_bias(const struct unwcache_entry *e, uint64_t start, uint64_t pgoff,
			uint64_t *bias)
{
	for (int i = 0; i < e->nsegs; i++) {
		const struct unwcache_seg *s = &e->segs[i];

		if ((s->offset & ~4095ull) <= pgoff && pgoff < s->offset + s->filesz) {
			*bias = start - pgoff + s->offset - s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/* Copy rows into the kernel's array at start. Returns 0 or -errno. */
static int upload_rows(struct unwind *u, uint32_t start, const struct unw_row *rows, size_t n)
{
	uint32_t *keys =
		malloc(sizeof(*keys) * (n < UNWIND_UPLOAD_BATCH ? n : UNWIND_UPLOAD_BATCH));
	int err = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t done = 0; done < n && !err;) {
		__u32 count = n - done < UNWIND_UPLOAD_BATCH ? n - done : UNWIND_UPLOAD_BATCH;

		for (__u32 i = 0; i < count; i++)
			keys[i] = start + done + i;
		if (bpf_map_update_batch(u->rows_fd, keys, rows + done, &count, NULL))
			err = -errno;
		done += count;
	}
	free(keys);
	return err;
}

/* Make e's rows and table visible to the walker. Returns 0 or -errno. */
static int publish(struct unwind *u, const struct unwcache_entry *e, const struct cfi_table *t)
{
	struct unw_table tab = { e->row_start, e->nrows, e->gen };
	int err = upload_rows(u, e->row_start, t->rows, t->nrows);

	if (!err && bpf_map_update_elem(u->tables_fd, &e->table_id, &tab, BPF_ANY))
		err = -errno;
	return err;
}

static uint64_t ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000ull + b->tv_nsec - a->tv_nsec;
}

/*
 * Build the table of the file at fd into a new cache entry: without rows (frame pointers
 * there) when it cannot be, so it is not tried again. NULL only when out of memory.
 */
static struct unwcache_entry *build(struct unwind *u, int fd, struct unwcache_entry *tmpl,
				    const char *name)
{
	struct cfi_table t = {};
	struct unwcache_entry *e = NULL;
	struct timespec t0, t1;
	char why[256] = "";
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = read_segs(fd, tmpl);
	if (!err)
		/* No larger than the walker's binary search reaches. */
		err = cfi_table_build(
			fd, -1, u->nrows < (1u << UNW_ROWS_LOG2) ? u->nrows : 1u << UNW_ROWS_LOG2,
			&t, why, sizeof(why));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err)
		e = unwcache_add(u->cache, tmpl, t.nrows, &err);
	if (!err)
		err = publish(u, e, &t);
	stat_add(u, &u->stats.build_ns, ns_between(&t0, &t1));
	stat_add(u, &u->stats.cfi_bytes, t.cfi_bytes);
	if (err) {
		log_debug("unwind: no table for '%s', frame pointers there: %s", name,
			  why[0] ? why : strerror(-err));
		stat_add(u, &u->stats.build_fails, 1);
		if (e)
			unwcache_forget(u->cache, e);
		e = unwcache_add(u->cache, tmpl, 0, &err);
	} else {
		log_debug("unwind: table for '%s': %zu rows from %zu bytes of CFI in %.1f ms", name,
			  t.nrows, t.cfi_bytes, ns_between(&t0, &t1) / 1e6);
		stat_add(u, &u->stats.builds, 1);
	}
	cfi_table_free(&t);
	return e;
}

/* The cache entry of a file mapped by pid: known by inode, by build-id, or built now. */
static struct unwcache_entry *file_table(struct unwind *u, uint32_t pid, const struct procmap *m)
{
	struct unwcache_entry tmpl = { .dev = m->dev, .ino = m->ino }, *e;
	struct stat st;
	int fd, n;

	e = unwcache_find(u->cache, m->dev, m->ino);
	if (e)
		return e;
	fd = procmaps_open(pid, m); /* map_files or inside the process's root, no links */
	if (fd < 0)
		return NULL;
	n = elfsyms_read_build_id(fd, tmpl.build_id, sizeof(tmpl.build_id));
	tmpl.build_id_len = n > 0 ? (size_t)n : 0;
	e = unwcache_find_build_id(u->cache, tmpl.build_id, tmpl.build_id_len);
	if (e && unwcache_alias(u->cache, e, m->dev, m->ino))
		e = NULL;
	else if (!e && !fstat(fd, &st) && (uint64_t)st.st_size <= UNWIND_FILE_MAX)
		e = build(u, fd, &tmpl, m->path);
	close(fd);
	return e;
}

/* The vDSO is the same image in every process: built from our own copy. */
static struct unwcache_entry *vdso_table(struct unwind *u, const struct procmap *m)
{
	struct unwcache_entry tmpl = { .ino = UNWIND_VDSO_INO }, *e;
	struct procmap *self = NULL;
	int n, fd = -1;

	e = unwcache_find(u->cache, 0, UNWIND_VDSO_INO);
	if (e)
		return e;
	n = procmaps_read((uint32_t)getpid(), &self);
	for (int i = 0; i < n && fd < 0; i++) {
		size_t len = self[i].end - self[i].start;

		if (self[i].kind != PROCMAP_VDSO)
			continue;
		fd = memfd_create("ember-vdso", MFD_CLOEXEC);
		if (fd >= 0 && write(fd, (const void *)self[i].start, len) != (ssize_t)len) {
			close(fd);
			fd = -1;
		}
	}
	procmaps_free(self, n > 0 ? n : 0);
	if (fd < 0)
		return NULL;
	e = build(u, fd, &tmpl, "[vdso]");
	close(fd);
	return e;
}

/* List pid's mappings that have a table in the walker's map. Returns 0 or -errno. */
static int load_proc(struct unwind *u, uint32_t pid)
{
	struct unw_proc *p = &u->proc;
	struct procmap *maps = NULL;
	int n = procmaps_read(pid, &maps);

	if (n < 0)
		return n;
	p->nmaps = 0;
	u->tick++;
	for (int i = 0; i < n && p->nmaps < UNW_MAX_MAPS; i++) {
		const struct procmap *m = &maps[i];
		struct unwcache_entry *e = m->kind == PROCMAP_FILE   ? file_table(u, pid, m)
					   : m->kind == PROCMAP_VDSO ? vdso_table(u, m)
								     : NULL;
		uint64_t bias;

		if (!e || e->table_id == UNW_TABLE_NONE ||
		    mapping_bias(e, m->start, m->pgoff, &bias))
			continue;
		unwcache_touch(e, u->tick);
		p->maps[p->nmaps++] = (struct unw_mapping){
			.start = m->start,
			.end = m->end,
			.bias = bias,
			.table_id = e->table_id,
			.table_gen = e->gen,
		};
	}
	procmaps_free(maps, n);
	return bpf_map_update_elem(u->procs_fd, &pid, p, BPF_ANY) ? -errno : 0;
}

static void forget_pid(struct unwind *u, uint32_t pid)
{
	for (size_t i = 0; i < u->npids; i++)
		if (u->pids[i] == pid) {
			u->pids[i] = u->pids[--u->npids];
			break;
		}
	bpf_map_delete_elem(u->procs_fd, &pid);
}

static void remember_pid(struct unwind *u, uint32_t pid)
{
	for (size_t i = 0; i < u->npids; i++)
		if (u->pids[i] == pid)
			return;
	if (u->npids == u->cap_pids) {
		size_t cap = u->cap_pids ? 2 * u->cap_pids : 64;
		uint32_t *p = realloc(u->pids, cap * sizeof(*p));

		if (!p)
			return;
		u->pids = p;
		u->cap_pids = cap;
	}
	u->pids[u->npids++] = pid;
}

static void handle(struct unwind *u, const struct unw_event *ev)
{
	if (ev->type == EMBER_PROC_EXIT) {
		forget_pid(u, ev->pid);
	} else if (load_proc(u, ev->pid) == 0) {
		remember_pid(u, ev->pid);
	} else {
		forget_pid(u, ev->pid); /* gone already */
	}
}

/* Mapping lists change (dlopen, a JIT's code): read them again; a gone process is forgotten. */
static void refresh(struct unwind *u)
{
	for (size_t i = u->npids; i-- > 0;)
		handle(u, &(struct unw_event){ EMBER_PROC_NEW, u->pids[i] });
}

/* Wait for an event until deadline. Returns 1 with *ev set, 0 at the deadline, -1 to stop. */
static int next_event(struct unwind *u, const struct timespec *deadline, struct unw_event *ev)
{
	int got = 0;

	pthread_mutex_lock(&u->lock);
	while (!u->stop && !u->qlen &&
	       pthread_cond_timedwait(&u->cond, &u->lock, deadline) != ETIMEDOUT)
		;
	if (u->stop) {
		got = -1;
	} else if (u->qlen) {
		*ev = u->queue[u->qhead];
		u->qhead = (u->qhead + 1) % UNWIND_QUEUE;
		u->qlen--;
		got = 1;
	}
	pthread_mutex_unlock(&u->lock);
	return got;
}

/*
 * The table thread: load or forget each queued process, reread all every UNWIND_REFRESH_SEC (events
 * or not), and after each publish the cache's stats. Returns NULL once stop is set.
 */
static void *run(void *arg)
{
	struct unwind *u = arg;
	struct timespec deadline;
	struct unw_event ev;
	int got;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += UNWIND_REFRESH_SEC;
	while ((got = next_event(u, &deadline, &ev)) >= 0) {
		struct unwcache_stats cs;

		if (got) {
			handle(u, &ev);
		} else {
			refresh(u);
			clock_gettime(CLOCK_MONOTONIC, &deadline);
			deadline.tv_sec += UNWIND_REFRESH_SEC;
		}
		unwcache_stats(u->cache, &cs);
		pthread_mutex_lock(&u->lock);
		u->stats.tables = cs.tables;
		u->stats.table_bytes = cs.rows_used * UNWIND_ROW_BYTES;
		u->stats.evictions = cs.evictions;
		u->stats.procs = u->npids;
		pthread_mutex_unlock(&u->lock);
	}
	return NULL;
}

void unwind_note(void *arg, uint32_t type, uint32_t pid)
{
	struct unwind *u = arg;

	pthread_mutex_lock(&u->lock);
	if (u->qlen < UNWIND_QUEUE) {
		u->queue[(u->qhead + u->qlen++) % UNWIND_QUEUE] = (struct unw_event){ type, pid };
		pthread_cond_signal(&u->cond);
	} else {
		u->stats.queue_drops++;
	}
	pthread_mutex_unlock(&u->lock);
}

void unwind_get_stats(struct unwind *u, struct unwind_stats *st)
{
	pthread_mutex_lock(&u->lock);
	*st = u->stats;
	pthread_mutex_unlock(&u->lock);
}

static int create_maps(struct unwind *u)
{
	LIBBPF_OPTS(bpf_map_create_opts, lazy, .map_flags = BPF_F_NO_PREALLOC);

	u->rows_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "unw_rows", sizeof(__u32),
				    sizeof(struct unw_row), u->nrows, NULL);
	if (u->rows_fd < 0)
		return -errno;
	u->tables_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "unw_tables", sizeof(__u32),
				      sizeof(struct unw_table), UNW_MAX_TABLES, NULL);
	if (u->tables_fd < 0)
		return -errno;
	u->procs_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "unw_procs", sizeof(__u32),
				     sizeof(struct unw_proc), UNW_MAX_PROCS, &lazy);
	return u->procs_fd < 0 ? -errno : 0;
}

static int start_thread(struct unwind *u)
{
	pthread_condattr_t ca;
	int err;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	err = pthread_cond_init(&u->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (!err)
		err = pthread_create(&u->thread, NULL, run, u);
	u->started = !err;
	return -err;
}

struct unwind *unwind_new(const struct config *cfg)
{
	struct unwind *u = calloc(1, sizeof(*u));
	int err = -ENOMEM;

	if (!u)
		goto cleanup;
	u->rows_fd = u->tables_fd = u->procs_fd = -1;
	pthread_mutex_init(&u->lock, NULL);
	u->nrows = (uint32_t)((uint64_t)cfg->unwind_max_mb * (1 << 20) / UNWIND_ROW_BYTES);
	u->stats.cap_bytes = (uint64_t)u->nrows * UNWIND_ROW_BYTES;
	elf_version(EV_CURRENT);
	u->queue = calloc(UNWIND_QUEUE, sizeof(*u->queue));
	u->cache = unwcache_new(u->nrows, UNW_MAX_TABLES, on_evict, u);
	if (!u->queue || !u->cache)
		goto cleanup;
	err = create_maps(u);
	if (err) {
		log_err("cannot create the unwind table maps (%u MB): %s", cfg->unwind_max_mb,
			strerror(-err));
		goto cleanup;
	}
	err = start_thread(u);
	if (err) {
		log_err("cannot start the unwind table thread: %s", strerror(-err));
		goto cleanup;
	}
	log_info("unwind: user stacks from unwind tables, up to %u MB of them", cfg->unwind_max_mb);
	return u;
cleanup:
	unwind_free(u);
	errno = -err;
	return NULL;
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	if (u->started) {
		pthread_mutex_lock(&u->lock);
		u->stop = 1;
		pthread_cond_signal(&u->cond);
		pthread_mutex_unlock(&u->lock);
		pthread_join(u->thread, NULL);
		pthread_cond_destroy(&u->cond);
	}
	pthread_mutex_destroy(&u->lock);
	if (u->rows_fd >= 0)
		close(u->rows_fd);
	if (u->tables_fd >= 0)
		close(u->tables_fd);
	if (u->procs_fd >= 0)
		close(u->procs_fd);
	unwcache_free(u->cache);
	free(u->queue);
	free(u->pids);
	free(u);
}

int unwind_share(struct unwind *u, struct bpf_object *obj)
{
	const struct {
		const char *name;
		int fd;
	} maps[] = { { "unw_rows", u->rows_fd },
		     { "unw_tables", u->tables_fd },
		     { "unw_procs", u->procs_fd } };

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, maps[i].name);
		int err;

		if (!m)
			return -ENOENT;
		err = bpf_map__reuse_fd(m, maps[i].fd);
		if (err)
			return err;
	}
	return 0;
}

void unwind_count_walks(const char *who, const struct unwind_walks *w, struct window_stats *ws)
{
	char walked[40] = "";

	ws->walks.walked += w->walked;
	ws->walks.complete += w->complete;
	ws->walks.cut += w->cut;
	ws->walks.fp_steps += w->fp_steps;
	ws->walks.no_table += w->no_table;
	if (w->walked)
		snprintf(walked, sizeof(walked), "%llu walked, ", (unsigned long long)w->walked);
	log_debug("%s: user stacks: %s%llu complete, %llu cut at %d frames, %llu with "
		  "frame-pointer steps, %llu before their tables",
		  who, walked, (unsigned long long)w->complete, (unsigned long long)w->cut,
		  MAX_STACK_DEPTH, (unsigned long long)w->fp_steps,
		  (unsigned long long)w->no_table);
}
