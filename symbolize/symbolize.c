/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symbolize.c - name stack frames: the process cache, frame formatting and the public API
 *
 * A drain hands us (pid, addresses) and wants "frame;frame;..." back, for processes that
 * may have exited since they were sampled. So the symbolizer keeps what it needs to know
 * of each process it met - its executable mappings and the ELF file behind each - in an
 * LRU cache of `struct proc` keyed by pid. A process is read when first named or when the
 * kernel says it was first sampled (symbolizer_note_pid: /proc/PID/maps, and each mapped
 * file opened through /proc/PID/map_files while it still exists); files are shared by all
 * processes in the dsocache (dsocache.c), so libc is read once for the host.
 *
 * Naming a user address is: find its mapping (binary search over the process's sorted
 * maps), translate to the file's virtual address with the mapping's offset, then look the
 * symbol up in the file's table, or in the process's perf map for anonymous (JIT) memory.
 * Return addresses are looked up at ip - 1, so a call at the end of a function is named
 * after the caller, not the next function. What cannot be named is written
 * module+0xOFFSET (or [unknown]) and counted, so every window can say what share of its
 * frames were named.
 *
 * Exits: a process that exited is kept until the end of the next window, because samples
 * taken just before its exit may be drained only then. When the kernel could send the
 * exit-time mappings (procs.bpf.c), they replace what /proc said, so a process that lived
 * 50 ms between two drains is still named. exec makes the cached maps stale: they are
 * reread at the next lookup, never used for the new image.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbolize/demangle.h"
#include "symbolize/dsocache.h"
#include "lib/htab.h"
#include "symbolize/ksyms.h"
#include "symbolize/perfmap.h"
#include "symbolize/procmaps.h"
#include "symbolize/symbolize.h"

#define SYM_DEFAULT_PROCS 8192
#define SYM_DEFAULT_REFRESH_MS 200
#define SYM_KALLSYMS "/proc/kallsyms"
#define SYM_MAX_INLINED 16
/* All perf maps held, together (one is at most PERFMAP_MAX_BYTES of text). */
#define SYM_PERFMAP_BUDGET (256u << 20)

struct proc {
	struct hnode node;
	struct lru lru;
	uint32_t pid;
	int exited, stale, pm_tried;
	uint64_t exit_window;
	struct procmap *maps;
	struct dso **dsos; /* per mapping; NULL when the file could not be opened */
	int nmaps;
	struct perfmap *pm;
	uint64_t maps_ns, pm_ns; /* when the maps and the perf map were last read */
};

struct symbolizer {
	struct symbolizer_opts opts;
	struct dsocache *dsos;
	struct dinfod *dinfod;
	struct ksyms *ks;
	int ks_tried;
	uint64_t modsig;
	struct htab procs;
	struct lru proc_lru;
	struct proc *last;
	uint64_t window, frames, named, maps_reads, exit_maps;
	uint64_t evicted;    /* processes dropped before their time to keep the cap */
	uint64_t pm_refused; /* perf maps not kept: all of them at SYM_PERFMAP_BUDGET */
	void (*sync)(void *ctx);
	void *sync_ctx;
};

static uint64_t sym_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Whether a live process's maps or perf map may be reread after a miss. */
static int sym_refresh_due(const struct symbolizer *s, uint64_t last_ns)
{
	int ms = s->opts.refresh_ms ? s->opts.refresh_ms : SYM_DEFAULT_REFRESH_MS;

	return ms < 0 || sym_now_ns() - last_ns >= (uint64_t)ms * 1000000ull;
}

struct symbolizer *symbolizer_new(const struct symbolizer_opts *opts)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	else
		s->opts.demangle = 1;
	if (!s->opts.max_procs)
		s->opts.max_procs = SYM_DEFAULT_PROCS;
	s->dsos = dsocache_new(s->opts.max_dsos, s->opts.debug_root, s->opts.inlines);
	if (!s->dsos) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	if (s->opts.debuginfod_urls) {
		s->dinfod = dinfod_new(s->opts.debuginfod_urls, s->opts.debuginfod_cache,
				       s->opts.debuginfod_timeout_sec);
		if (!s->dinfod) {
			int err = errno;

			dsocache_free(s->dsos);
			free(s);
			errno = err;
			return NULL;
		}
		dsocache_set_debuginfod(s->dsos, s->dinfod);
	}
	htab_init(&s->procs);
	lru_init(&s->proc_lru);
	return s;
}

static void proc_release_maps(struct symbolizer *s, struct proc *p)
{
	for (int i = 0; i < p->nmaps; i++)
		dsocache_put(s->dsos, p->dsos[i]);
	procmaps_free(p->maps, p->nmaps);
	free(p->dsos);
	p->maps = NULL;
	p->dsos = NULL;
	p->nmaps = 0;
}

static void proc_drop(struct symbolizer *s, struct proc *p)
{
	if (s->last == p)
		s->last = NULL;
	htab_remove(&s->procs, &p->node);
	lru_unlink(&p->lru);
	proc_release_maps(s, p);
	perfmap_free(p->pm);
	free(p);
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s)
		return;
	while (s->proc_lru.next != &s->proc_lru)
		proc_drop(s, lru_entry(s->proc_lru.next, struct proc, lru));
	htab_release(&s->procs);
	dsocache_free(s->dsos);
	dinfod_free(s->dinfod);
	ksyms_free(s->ks);
	free(s);
}

/* The pid as the process's own namespace knows it: the last NSpid field. */
static uint32_t proc_nspid(uint32_t pid)
{
	char path[64], line[256];
	uint32_t ns = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/status", pid);
	f = fopen(path, "re");
	if (!f)
		return pid;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6))
			continue;
		for (char *tok = strtok(line + 6, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
			ns = (uint32_t)strtoul(tok, NULL, 10);
		break;
	}
	fclose(f);
	return ns;
}

/* Open the perf map of a JIT process: /tmp/perf-NSPID.map inside its root. */
/* Bytes of all perf maps held, each counted once however many processes share it. */
static uint64_t sym_perfmap_bytes(const struct symbolizer *s)
{
	uint64_t bytes = 0;

	for (const struct lru *it = s->proc_lru.next; it != &s->proc_lru; it = it->next) {
		const struct proc *p = lru_entry(it, struct proc, lru);

		if (p->pm)
			bytes += perfmap_bytes(p->pm) / (uint64_t)perfmap_refs(p->pm);
	}
	return bytes;
}

/*
 * Take the perf map just read for p: the one another process holds if they come from one
 * file (one sparse 64 MiB map hard-linked for four PIDs cost 256 MiB), and none when all
 * perf maps would pass SYM_PERFMAP_BUDGET (counted in perfmaps_refused).
 */
static void proc_take_perfmap(struct symbolizer *s, struct proc *p, struct perfmap *pm)
{
	for (const struct lru *it = s->proc_lru.next; it != &s->proc_lru; it = it->next) {
		const struct proc *q = lru_entry(it, struct proc, lru);

		if (q->pm && perfmap_same_file(q->pm, pm)) {
			perfmap_free(pm);
			p->pm = perfmap_hold(q->pm);
			return;
		}
	}
	if (sym_perfmap_bytes(s) + perfmap_bytes(pm) > SYM_PERFMAP_BUDGET) {
		perfmap_free(pm);
		s->pm_refused++;
		return;
	}
	p->pm = pm;
}

/*
 * Look once for p's perf map: perf-PID.map in perfmap_dir, else /tmp/perf-NSPID.map in its root;
 * trusted if owned by its uid or root, kept by proc_take_perfmap(). Failures leave p->pm NULL.
 */
static void proc_open_perfmap(struct symbolizer *s, struct proc *p)
{
	struct perfmap *pm;
	char path[64], name[64];
	struct stat st;
	int dfd;

	p->pm_tried = 1;
	p->pm_ns = sym_now_ns();
	snprintf(path, sizeof(path), "/proc/%" PRIu32, p->pid);
	if (stat(path, &st))
		return;
	if (s->opts.perfmap_dir) {
		dfd = open(s->opts.perfmap_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		snprintf(name, sizeof(name), "perf-%" PRIu32 ".map", p->pid);
	} else {
		snprintf(path, sizeof(path), "/proc/%" PRIu32 "/root", p->pid);
		dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		snprintf(name, sizeof(name), "tmp/perf-%" PRIu32 ".map", proc_nspid(p->pid));
	}
	if (dfd < 0)
		return;
	if (!perfmap_open(dfd, name, st.st_uid, &pm))
		proc_take_perfmap(s, p, pm);
	close(dfd);
}

/* Attach the file of each mapping: opened now, while the process lives. */
static int proc_attach_dsos(struct symbolizer *s, struct proc *p)
{
	for (int i = 0; i < p->nmaps; i++) {
		const struct procmap *m = &p->maps[i];
		int fd, err;

		if (m->kind == PROCMAP_VDSO) {
			p->dsos[i] = dsocache_vdso(s->dsos);
			continue;
		}
		if (m->kind == PROCMAP_ANON && !p->pm_tried)
			proc_open_perfmap(s, p);
		if (m->kind != PROCMAP_FILE || (fd = procmaps_open(p->pid, m)) < 0)
			continue;
		err = dsocache_get(s->dsos, fd, m->path, &p->dsos[i]);
		close(fd);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

static int proc_read_maps(struct symbolizer *s, struct proc *p)
{
	struct procmap *maps;
	int n, err;

	s->maps_reads++;
	p->maps_ns = sym_now_ns();
	n = procmaps_read(p->pid, &maps);
	if (n < 0)
		return n;
	proc_release_maps(s, p);
	p->maps = maps;
	p->nmaps = n;
	p->stale = 0;
	p->dsos = calloc((size_t)(n ? n : 1), sizeof(*p->dsos));
	if (!p->dsos) {
		procmaps_free(p->maps, p->nmaps);
		p->maps = NULL;
		p->nmaps = 0;
		return -ENOMEM;
	}
	err = proc_attach_dsos(s, p);
	return err;
}

static struct proc *proc_lookup(struct symbolizer *s, uint32_t pid)
{
	if (s->last && s->last->pid == pid)
		return s->last;
	for (struct hnode *n = htab_first(&s->procs, htab_hash_u64(pid)); n; n = htab_next(n))
		if (((struct proc *)n)->pid == pid)
			return s->last = (struct proc *)n;
	return NULL;
}

static void proc_mark_exited(struct symbolizer *s, struct proc *p)
{
	if (!p->exited) {
		p->exited = 1;
		p->exit_window = s->window;
	}
}

/* A new entry without maps, or NULL. */
/* How far from the least recently used end an exited process is looked for. */
#define SYM_EVICT_SCAN 64

/*
 * Keep the cache under its cap as entries come in, not only at the window's end: process
 * churn (200,000 exit records in one window) must not grow it. The oldest exited process
 * goes first (its late samples lose their names, a bounded loss), else the least recently
 * used live one, which is read again at its next sample.
 */
static void proc_make_room(struct symbolizer *s)
{
	struct lru *it = s->proc_lru.prev;

	if (s->procs.count < s->opts.max_procs || it == &s->proc_lru)
		return;
	for (int k = 0; k < SYM_EVICT_SCAN && it != &s->proc_lru; k++, it = it->prev) {
		struct proc *p = lru_entry(it, struct proc, lru);

		if (p->exited) {
			proc_drop(s, p);
			s->evicted++;
			return;
		}
	}
	proc_drop(s, lru_entry(s->proc_lru.prev, struct proc, lru));
	s->evicted++;
}

static struct proc *proc_insert(struct symbolizer *s, uint32_t pid)
{
	struct proc *p;

	proc_make_room(s);
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (htab_insert(&s->procs, &p->node, htab_hash_u64(pid))) {
		free(p);
		return NULL;
	}
	lru_init(&p->lru);
	lru_push_front(&s->proc_lru, &p->lru);
	return s->last = p;
}

/* A new entry whose maps are read now; a process already gone is remembered as such. */
static int proc_create(struct symbolizer *s, uint32_t pid, struct proc **out)
{
	struct proc *p = proc_insert(s, pid);
	int err;

	if (!p)
		return -ENOMEM;
	err = proc_read_maps(s, p);
	if (err && err != -ENOMEM)
		proc_mark_exited(s, p);
	*out = p;
	return err;
}

/* The entry of a process that was found gone: its exit record may be pending. */
static int proc_sync_gone(struct symbolizer *s, uint32_t pid, struct proc **out)
{
	struct proc *p;

	if (s->sync)
		s->sync(s->sync_ctx);
	p = proc_lookup(s, pid);
	if (!p)
		return proc_create(s, pid, out) == -ENOMEM ? -ENOMEM : 0;
	*out = p;
	return 0;
}

/*
 * The cache entry of pid, made most recently used: created if new, maps reread if an exec made them
 * stale (and dropped if that fails: the old image's maps would give wrong names). A process gone
 * from /proc is looked up again once pending exit records are read. Returns 0 with *out set
 * (perhaps an entry without maps), or -ENOMEM.
 */
static int proc_get(struct symbolizer *s, uint32_t pid, struct proc **out)
{
	struct proc *p = proc_lookup(s, pid);
	int err;

	if (!p) {
		err = proc_create(s, pid, &p);
	} else if (p->stale && !p->exited) {
		err = proc_read_maps(s, p);
		if (err && err != -ENOMEM) {
			/* The maps from before exec would give wrong names. */
			proc_release_maps(s, p);
			proc_mark_exited(s, p);
		}
	} else {
		err = 0;
	}
	if (err == -ENOMEM)
		return err;
	if (err)
		return proc_sync_gone(s, pid, out);
	lru_touch(&s->proc_lru, &p->lru);
	*out = p;
	return 0;
}

static int proc_find_map(const struct proc *p, uint64_t addr)
{
	int lo = 0, hi = p->nmaps;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < p->maps[lo - 1].end ? lo - 1 : -1;
}

/*
 * A name that ends in white space and a number ("f 1000000") would make its stack's folded
 * line read as a differential one ("a;f 1000000 5") when it is the leaf: the space becomes '_'.
 */
static void frame_unnumber(char *name, size_t len)
{
	size_t i = len;

	while (i > 0 && (isdigit((unsigned char)name[i - 1]) || name[i - 1] == '.'))
		i--;
	if (i > 0 && i < len && isdigit((unsigned char)name[i]) &&
	    isspace((unsigned char)name[i - 1]))
		name[i - 1] = '_';
}

/* A name made safe for a folded line: ';' separates frames, a newline ends the stack. */
static int frame_add_name(struct sbuf *out, const char *name, const char *suffix)
{
	size_t len = strlen(name), at = out->len;
	int err = sbuf_grow(out, len + strlen(suffix) + 1);

	if (err)
		return err;
	sbuf_add(out, name, len);
	for (size_t i = at; i < out->len; i++)
		if (out->buf[i] == ';')
			out->buf[i] = ':';
		else if ((unsigned char)out->buf[i] < 0x20)
			out->buf[i] = '?';
	frame_unnumber(out->buf + at, len);
	sbuf_addstr(out, suffix);
	return sbuf_addch(out, ';');
}

static int frame_unknown(struct sbuf *out)
{
	return sbuf_addstr(out, "[unknown];");
}

static int frame_offset(struct sbuf *out, const char *module, uint64_t off, const char *suffix)
{
	int err = frame_add_name(out, module, "");

	if (err)
		return err;
	sbuf_setlen(out, out->len - 1);
	return sbuf_addf(out, "+0x%" PRIx64 "%s;", off, suffix);
}

static const char *sym_name(struct symbolizer *s, struct elfsyms *es, long idx)
{
	const char *raw = elfsyms_name(es, idx), *alt;
	char *dm;

	if (!s->opts.demangle || !demangle_candidate(raw))
		return raw;
	alt = elfsyms_alt_name(es, idx);
	if (alt)
		return alt;
	/* Remember failures too (as the raw name), so each symbol is tried once. */
	dm = demangle(raw);
	if (!dm)
		dm = strdup(raw);
	if (!dm || elfsyms_set_alt_name(es, idx, dm)) {
		free(dm);
		return raw;
	}
	return dm;
}

/* The functions inlined at vaddr, after the one that holds them, written name_[i]. */
static int frame_inlined(struct inlines *inl, uint64_t vaddr, struct sbuf *out)
{
	const char *names[SYM_MAX_INLINED];
	int n = inlines_at(inl, vaddr, names, SYM_MAX_INLINED), err = 0;

	for (int i = 0; i < n && !err; i++)
		err = frame_add_name(out, names[i], "_[i]");
	return err;
}

/* A frame in a file: its symbol, else module+0xVADDR. */
static int frame_dso(struct symbolizer *s, struct dso *d, const struct procmap *m, uint64_t ip,
		     uint64_t addr, struct sbuf *out)
{
	const char *label = d ? d->name : m->path;
	uint64_t off = addr - m->start + m->pgoff, vaddr;
	struct symset *set = d ? dsocache_symbols(s->dsos, d) : NULL;
	struct elfsyms *es = set ? set->es : NULL;
	long idx;
	int err;

	if (!label)
		return frame_unknown(out);
	if (!d && strrchr(label, '/'))
		label = strrchr(label, '/') + 1;
	if (!es || elfsyms_off_to_vaddr(es, off, &vaddr))
		return frame_offset(out, label, off + (ip - addr), "");
	idx = elfsyms_find(es, vaddr);
	if (idx < 0)
		return frame_offset(out, label, vaddr + (ip - addr), "");
	err = frame_add_name(out, sym_name(s, es, idx), "");
	if (!err && set->inl)
		err = frame_inlined(set->inl, vaddr, out);
	return err ? err : 1;
}

static int frame_jit(struct symbolizer *s, struct proc *p, uint64_t addr, struct sbuf *out)
{
	const char *name = p->pm ? perfmap_lookup(p->pm, addr) : NULL;
	int err;

	if (!name && !p->exited && sym_refresh_due(s, p->pm_ns)) {
		p->pm_ns = sym_now_ns();
		if (!p->pm)
			proc_open_perfmap(s, p);
		else
			perfmap_refresh(p->pm);
		name = p->pm ? perfmap_lookup(p->pm, addr) : NULL;
	}
	if (!name)
		return frame_unknown(out);
	err = frame_add_name(out, name, "_[j]");
	return err ? err : 1;
}

/* Returns 1 when named, 0 when not, or -ENOMEM. */
static int frame_user(struct symbolizer *s, struct proc *p, uint64_t ip, int leaf, struct sbuf *out)
{
	/* Callers' addresses are return addresses: look up the call instead. */
	uint64_t addr = leaf ? ip : ip - 1;
	const struct procmap *m;
	int i = proc_find_map(p, addr);

	if (i < 0 && !p->exited && sym_refresh_due(s, p->maps_ns)) {
		if (proc_read_maps(s, p) == -ENOMEM)
			return -ENOMEM;
		i = proc_find_map(p, addr);
	}
	if (i < 0)
		return frame_unknown(out);
	m = &p->maps[i];
	switch (m->kind) {
	case PROCMAP_FILE:
	case PROCMAP_VDSO:
		return frame_dso(s, p->dsos[i], m, ip, addr, out);
	case PROCMAP_ANON:
		return frame_jit(s, p, addr, out);
	default:
		return frame_offset(out, m->path, ip - m->start, "");
	}
}

static struct ksyms *sym_ksyms(struct symbolizer *s)
{
	const char *path = s->opts.kallsyms ? s->opts.kallsyms : SYM_KALLSYMS;

	if (!s->ks_tried) {
		s->ks_tried = 1;
		if (!s->opts.kallsyms)
			s->modsig = ksyms_modules_signature("/proc/modules");
		if (ksyms_load(path, &s->ks))
			s->ks = NULL;
	}
	return s->ks;
}

static int frame_kernel(struct symbolizer *s, uint64_t ip, int leaf, struct sbuf *out)
{
	struct ksyms *ks = sym_ksyms(s);
	const char *name = NULL, *module;
	int err;

	if (ks)
		name = ksyms_lookup(ks, leaf ? ip : ip - 1, &module);
	if (!name)
		return frame_offset(out, "[kernel]", ip, "_[k]");
	err = frame_add_name(out, name, "_[k]");
	return err ? err : 1;
}

int symbolizer_append_stack(struct symbolizer *s, uint32_t pid, const uint64_t *ips, int n,
			    int kernel, struct sbuf *out)
{
	size_t start = out->len;
	struct proc *p = NULL;
	int count = 0, r;

	if (n < 0 || (n > 0 && !ips))
		return -EINVAL;
	if (!kernel && (r = proc_get(s, pid, &p)))
		return r;
	for (int i = n - 1; i >= 0; i--) {
		/* Zeros pad the end of a BPF stack: they are no frames. */
		if (!ips[i])
			continue;
		r = kernel ? frame_kernel(s, ips[i], i == 0, out)
			   : frame_user(s, p, ips[i], i == 0, out);
		if (r < 0) {
			sbuf_setlen(out, start);
			return r;
		}
		s->frames++;
		s->named += (uint64_t)r;
		count++;
	}
	return count;
}

/* Whether pid names a live process with mappings (a zombie has none). */
static int proc_alive(uint32_t pid)
{
	struct procmap *maps;
	int n = procmaps_read(pid, &maps);

	if (n < 0)
		return 0;
	procmaps_free(maps, n);
	return n > 0;
}

int symbolizer_note_pid(struct symbolizer *s, uint32_t pid)
{
	struct proc *p = proc_lookup(s, pid);

	if (p && !p->exited && !p->stale)
		return 0;
	if (p && p->exited) {
		/* A reused pid, or a late report of the exited process: keep what it left. */
		if (!proc_alive(pid))
			return -ESRCH;
		proc_drop(s, p);
	} else if (p) {
		return proc_read_maps(s, p);
	}
	return proc_create(s, pid, &p);
}

void symbolizer_note_exec(struct symbolizer *s, uint32_t pid)
{
	struct proc *p = proc_lookup(s, pid);

	if (p)
		p->stale = 1;
}

void symbolizer_note_exit(struct symbolizer *s, uint32_t pid)
{
	struct proc *p = proc_lookup(s, pid);

	if (p)
		proc_mark_exited(s, p);
}

/* The file of an exit-time mapping: read before by identity, else as this process had it. */
static struct dso *proc_exit_dso(struct symbolizer *s, const struct proc *p,
				 const struct symbolizer_vma *v, struct procmap *m)
{
	struct dso_key k = { v->dev, v->ino, v->size, v->mtime_ns };
	struct dso *d = dsocache_find(s->dsos, &k);

	for (int i = 0; i < p->nmaps; i++) {
		const struct procmap *old = &p->maps[i];

		if (old->kind != PROCMAP_FILE || (uint64_t)old->dev != v->dev || old->ino != v->ino)
			continue;
		m->path = old->path ? strdup(old->path) : NULL;
		if (!d && p->dsos[i]) {
			d = p->dsos[i];
			dsocache_hold(s->dsos, d);
		}
		break;
	}
	return d;
}

/*
 * Replace p's maps with the mappings the kernel sent at its exit, each file found in the DSO cache
 * by identity or in p's previous maps, so a process gone from /proc is still named. Returns 0, or
 * -ENOMEM with p unchanged.
 */
static int proc_set_exit_maps(struct symbolizer *s, struct proc *p, const struct symbolizer_vma *v,
			      int n)
{
	struct procmap *maps = calloc((size_t)n, sizeof(*maps));
	struct dso **dsos = calloc((size_t)n, sizeof(*dsos));

	if (!maps || !dsos) {
		free(maps);
		free(dsos);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		maps[i] = (struct procmap){ .start = v[i].start,
					    .end = v[i].end,
					    .pgoff = v[i].pgoff,
					    .dev = (dev_t)v[i].dev,
					    .ino = v[i].ino,
					    .kind = v[i].kind };
		if (v[i].kind == PROCMAP_VDSO)
			dsos[i] = dsocache_vdso(s->dsos);
		else if (v[i].kind == PROCMAP_FILE)
			dsos[i] = proc_exit_dso(s, p, &v[i], &maps[i]);
	}
	proc_release_maps(s, p);
	p->maps = maps;
	p->dsos = dsos;
	p->nmaps = n;
	p->stale = 0;
	s->exit_maps++;
	return 0;
}

int symbolizer_note_exit_maps(struct symbolizer *s, uint32_t pid, const struct symbolizer_vma *v,
			      int n, int complete)
{
	struct proc *p = proc_lookup(s, pid);
	int err;

	for (int i = 0; i < n; i++)
		if (v[i].end <= v[i].start || (i && v[i].start < v[i - 1].end))
			return -EINVAL;
	if (!n || (!complete && p && p->nmaps)) {
		symbolizer_note_exit(s, pid);
		return 0;
	}
	if (!p && !(p = proc_insert(s, pid)))
		return -ENOMEM;
	err = proc_set_exit_maps(s, p, v, n);
	proc_mark_exited(s, p);
	return err;
}

void symbolizer_set_sync(struct symbolizer *s, void (*sync)(void *ctx), void *ctx)
{
	s->sync = sync;
	s->sync_ctx = ctx;
}

/*
 * A process that exited in window W is dropped at the end of W+1: samples taken
 * just before it exited may be drained only in the next window. Processes that
 * vanished without note_exit() are noticed here and treated alike.
 */
void symbolizer_end_window(struct symbolizer *s)
{
	struct lru *it = s->proc_lru.prev, *prev;
	size_t alive_excess =
		s->procs.count > s->opts.max_procs ? s->procs.count - s->opts.max_procs : 0;

	for (; it != &s->proc_lru; it = prev) {
		struct proc *p = lru_entry(it, struct proc, lru);

		prev = it->prev;
		if (!p->exited && kill((pid_t)p->pid, 0) && errno == ESRCH) {
			p->exited = 1;
			p->exit_window = s->window;
		}
		if (p->exited && p->exit_window < s->window) {
			proc_drop(s, p);
		} else if (!p->exited && alive_excess) {
			/* Least recently used first; it is read again at its next sample. */
			proc_drop(s, p);
			alive_excess--;
		}
	}
	dsocache_trim(s->dsos);
	if (s->ks && !s->opts.kallsyms && ksyms_modules_signature("/proc/modules") != s->modsig) {
		ksyms_free(s->ks);
		s->ks = NULL;
		s->ks_tried = 0;
	}
	s->window++;
}

static uint64_t sym_procs_bytes(const struct symbolizer *s)
{
	uint64_t bytes = htab_bytes(&s->procs) + sym_perfmap_bytes(s);

	for (const struct lru *it = s->proc_lru.next; it != &s->proc_lru; it = it->next) {
		const struct proc *p = lru_entry(it, struct proc, lru);

		bytes += sizeof(*p) + (uint64_t)p->nmaps * (sizeof(*p->maps) + sizeof(*p->dsos));
		for (int i = 0; i < p->nmaps; i++)
			bytes += p->maps[i].path ? strlen(p->maps[i].path) + 1 : 0;
	}
	return bytes;
}

void symbolizer_get_stats(const struct symbolizer *s, struct symbolizer_stats *st)
{
	struct dsocache_stats ds;

	dsocache_get_stats(s->dsos, &ds);
	memset(st, 0, sizeof(*st));
	st->frames = s->frames;
	st->named = s->named;
	st->procs = s->procs.count;
	st->dsos = ds.dsos;
	st->symsets = ds.symsets;
	st->elf_loads = ds.loads;
	st->debug_files = ds.debug_files;
	st->maps_reads = s->maps_reads;
	st->exit_maps = s->exit_maps;
	st->procs_evicted = s->evicted;
	st->perfmaps_refused = s->pm_refused;
	st->perfmaps_bytes = sym_perfmap_bytes(s);
	st->max_procs = s->opts.max_procs;
	st->max_dsos = ds.cap;
	st->dsos_pending = ds.pending;
	st->cache_bytes = ds.bytes + sym_procs_bytes(s) + (s->ks ? ksyms_bytes(s->ks) : 0);
	for (const struct lru *it = s->proc_lru.next; it != &s->proc_lru; it = it->next)
		st->perfmaps += lru_entry(it, const struct proc, lru)->pm != NULL;
	st->kernel_restricted = s->ks && ksyms_restricted(s->ks);
	st->debuginfod = s->dinfod != NULL;
	if (s->dinfod)
		dinfod_get_stats(s->dinfod, &st->dinfod);
}

void symbolizer_frame_counts(const struct symbolizer *s, uint64_t *frames, uint64_t *named)
{
	*frames = s->frames;
	*named = s->named;
}
