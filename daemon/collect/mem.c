/* SPDX-License-Identifier: BSD-2-Clause */
/* mem.c - the memory collector: find the allocator, load, attach uprobes on a duty cycle */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/collect/kmaps.h"
#include "lib/log.h"
#include "daemon/collect/memcol.h"
#include "daemon/collect/memsample.h"
#include "daemon/collect/uprobes.h"
#include "mem.skel.h"

#define DUTY_PERIOD_NS 1000000000ull

static const char *const fn_names[MEM_NFN] = {
	"malloc",        "calloc",   "realloc", "reallocarray", "posix_memalign",
	"aligned_alloc", "memalign", "valloc",  "pvalloc",      "free",
};

uint64_t mem_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The C library emberd itself runs on: the host's. */
static int host_libc(char *path, size_t size)
{
	Dl_info info;

	if (!dladdr((void *)malloc, &info) || !info.dli_fname)
		return -ENOENT;
	snprintf(path, size, "%s", info.dli_fname);
	return 0;
}

static int lib_matches(const char *mapped, const char *want)
{
	const char *base = strrchr(mapped, '/');

	base = base ? base + 1 : mapped;
	if (*want)
		return !strcmp(mapped, want) ||
		       !strcmp(base, strrchr(want, '/') ? strrchr(want, '/') + 1 : want);
	return !strncmp(base, "libc.so", 7) || !strncmp(base, "libc-", 5);
}

/* The allocator library as process pid maps it, seen through its root (containers). */
static int process_lib(uint32_t pid, const char *want, char *path, size_t size)
{
	char maps[64], line[PATH_MAX + 128];
	int err = -ENOENT;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%u/maps", pid);
	f = fopen(maps, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/');

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		if (lib_matches(file, want)) {
			snprintf(path, size, "/proc/%u/root%s", pid, file);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* Resolve the functions of one library and describe it to the BPF side. Returns 0 or -errno. */
static int add_lib(struct mem *m, const char *path, uint32_t pid)
{
	struct memlib *l = &m->libs[m->nlibs];
	struct uprobes_sym syms[MEM_NFN];
	struct mem_lib info = {};
	__u32 idx = m->nlibs;
	uint64_t lo, hi;
	int n;

	n = uprobes_resolve(path, m->cfg->mem_prefix, fn_names, MEM_NFN, syms, &lo, &hi);
	if (n < 0) {
		log_err("memory: cannot read '%s': %s", path, strerror(-n));
		return n;
	}
	if (!syms[MEM_MALLOC].vaddr || !syms[MEM_FREE].vaddr) {
		log_err("memory: no %smalloc and %sfree in '%s'", m->cfg->mem_prefix,
			m->cfg->mem_prefix, path);
		return -ENOENT;
	}
	info.text_lo = lo;
	info.text_hi = hi;
	snprintf(l->path, sizeof(l->path), "%s", path);
	l->pid = pid;
	l->alloc_fd = l->free_fd = -1;
	l->free_offset = syms[MEM_FREE].offset;
	for (int fn = 0; fn < MEM_FREE; fn++) {
		int dup = 0;

		info.fn_vaddr[fn] = syms[fn].vaddr;
		for (size_t i = 0; i < l->nalloc; i++)
			dup |= l->offsets[i] == syms[fn].offset;
		if (!syms[fn].vaddr || dup) /* aliases (memalign = aligned_alloc) once */
			continue;
		l->offsets[l->nalloc] = syms[fn].offset;
		l->cookies[l->nalloc++] = (uint64_t)idx << 8 | fn;
	}
	if (bpf_map_update_elem(bpf_map__fd(m->skel->maps.libs), &idx, &info, BPF_ANY))
		return -errno;
	m->nlibs++;
	log_info("memory: probing %zu allocation functions and free in '%s'%s", l->nalloc, path,
		 pid ? "" : " for every process");
	return 0;
}

/*
 * The allocator libraries to probe: without pids, the configured library or emberd's own libc,
 * probed in every process; with pids, the copy each process maps (through its root, so containers
 * work), one library per process and at most MEM_MAX_LIBS. Logs what fails. Returns 0 or a negative
 * errno.
 */
static int find_libs(struct mem *m)
{
	const struct config *cfg = m->cfg;
	char path[PATH_MAX];
	int err;

	if (!cfg->npids) {
		if (*cfg->mem_lib)
			snprintf(path, sizeof(path), "%s", cfg->mem_lib);
		else if (host_libc(path, sizeof(path)))
			return -ENOENT;
		return add_lib(m, path, 0);
	}
	if (cfg->npids > MEM_MAX_LIBS) {
		log_err("memory: at most %d processes can be probed", MEM_MAX_LIBS);
		return -E2BIG;
	}
	for (size_t i = 0; i < cfg->npids; i++) {
		err = process_lib(cfg->pids[i], cfg->mem_lib, path, sizeof(path));
		if (err) {
			log_err("memory: no allocator library '%s' in process %u",
				*cfg->mem_lib ? cfg->mem_lib : "libc.so", cfg->pids[i]);
			return err;
		}
		err = add_lib(m, path, cfg->pids[i]);
		if (err)
			return err;
	}
	return 0;
}

/* Attach the allocation session and the free probe of every library. Returns 0 or -errno. */
static int attach_probes(struct mem *m)
{
	int alloc = bpf_program__fd(m->skel->progs.mem_alloc);
	int free_prog = bpf_program__fd(m->skel->progs.mem_free);

	for (int i = 0; i < m->nlibs; i++) {
		struct memlib *l = &m->libs[i];
		uint64_t cookie = i;

		if (l->alloc_fd < 0)
			l->alloc_fd = uprobes_attach(alloc, UPROBES_SESSION, l->path, l->offsets,
						     l->cookies, l->nalloc, l->pid);
		if (l->alloc_fd < 0)
			return l->alloc_fd;
		if (l->free_fd < 0)
			l->free_fd = uprobes_attach(free_prog, UPROBES_MULTI, l->path,
						    &l->free_offset, &cookie, 1, l->pid);
		if (l->free_fd < 0)
			return l->free_fd;
	}
	return 0;
}

static void detach_probes(struct mem *m)
{
	for (int i = 0; i < m->nlibs; i++) {
		struct memlib *l = &m->libs[i];

		if (l->alloc_fd >= 0)
			close(l->alloc_fd);
		if (l->free_fd >= 0)
			close(l->free_fd);
		l->alloc_fd = l->free_fd = -1;
	}
}

static void wait_until(struct mem *m, uint64_t deadline_ns)
{
	struct timespec ts = { deadline_ns / 1000000000ull, deadline_ns % 1000000000ull };

	while (!m->stop && mem_now_ns() < deadline_ns)
		pthread_cond_timedwait(&m->wake, &m->lock, &ts);
}

/*
 * Each uprobe hit is a trap (microseconds here), and free traps as often as
 * malloc, so both are attached only duty% of each second; weights are scaled by
 * the time they were attached. The price: an allocation freed while the probes
 * are off stays in the live table (--mem-duty 100 sees every free).
 */
static void *duty_main(void *arg)
{
	struct mem *m = arg;
	uint64_t on = DUTY_PERIOD_NS * m->cfg->mem_duty / 100;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		uint64_t t0 = mem_now_ns();
		int err = m->attached ? 0 : attach_probes(m);

		if (err)
			log_warn("memory: cannot attach the allocation probes: %s, retrying",
				 strerror(-err));
		else if (!m->attached)
			m->on_since = mem_now_ns();
		m->attached = !err;
		wait_until(m, t0 + on);
		if (m->cfg->mem_duty == 100 && m->attached)
			continue;
		detach_probes(m);
		if (m->attached)
			m->on_ns += mem_now_ns() - m->on_since;
		m->attached = 0;
		wait_until(m, t0 + DUTY_PERIOD_NS);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

void mem_take_on_time(struct mem *m, uint64_t *on_ns, uint64_t *elapsed_ns, double *duty_total)
{
	uint64_t now;

	pthread_mutex_lock(&m->lock);
	now = mem_now_ns();
	if (m->attached) {
		m->on_ns += now - m->on_since;
		m->on_since = now;
	}
	*on_ns = m->on_ns;
	*elapsed_ns = now - m->last_drain;
	m->on_total += m->on_ns;
	m->on_ns = 0;
	m->last_drain = now;
	*duty_total = now > m->started ? (double)m->on_total / (now - m->started) : 1;
	pthread_mutex_unlock(&m->lock);
}

/* Syscall tracepoints need tracefs; mount it where it is missing, as perf and bpftrace expect. */
static void ensure_tracefs(void)
{
	if (access("/sys/kernel/tracing/events", F_OK) == 0)
		return;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		log_debug("cannot mount tracefs: %s, ignoring", strerror(errno));
}

static void attach_kernel_side(struct mem *m)
{
	struct bpf_program *progs[] = { m->skel->progs.mem_exit, m->skel->progs.mem_exec,
					m->skel->progs.mem_mmap, m->skel->progs.mem_munmap,
					m->skel->progs.mem_brk };

	ensure_tracefs();
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct bpf_link *link = bpf_program__attach(progs[i]);

		if (!link) {
			log_warn("memory: cannot attach '%s': %s, ignoring",
				 bpf_program__name(progs[i]), strerror(errno));
			continue;
		}
		m->links[m->nlinks++] = link;
	}
}

/* Open, configure and load the BPF object, user stacks walked with tables when dwarf. */
static int open_load(struct mem *m, const struct collector_ctx *ctx, bool dwarf)
{
	struct mem_bpf *skel;
	int err;

	mem_bpf__destroy(m->skel);
	m->dwarf = dwarf;
	m->skel = skel = mem_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->sample_bytes = m->cfg->mem_sample;
	skel->rodata->filter_pids = m->cfg->npids > 0;
	skel->rodata->key_tid = m->cfg->prefix == PREFIX_TID;
	skel->rodata->unwind_dwarf = dwarf;
	memsample_exp_table((volatile uint32_t *)skel->rodata->exp_table, MEM_EXP_TABLE,
			    MEM_EXP_SHIFT);
	/* One of the two stack maps is used; the other keeps one entry. */
	err = bpf_map__set_max_entries(dwarf ? skel->maps.stacks : skel->maps.ustacks, 1);
	err = err ?: bpf_program__set_expected_attach_type(skel->progs.mem_alloc, UPROBES_SESSION);
	err = err ?: bpf_program__set_expected_attach_type(skel->progs.mem_free, UPROBES_MULTI);
	err = err ?: procs_share(ctx->procs, skel->obj);
	if (!err && dwarf)
		err = unwind_share(ctx->unwind, skel->obj);
	return err ?: mem_bpf__load(skel);
}

/* With tables unless there are none; with auto, frame pointers where the kernel refuses them. */
static int load(struct mem *m, const struct collector_ctx *ctx)
{
	int err = open_load(m, ctx, ctx->unwind != NULL);

	if (err && ctx->unwind && ctx->cfg->unwind_mode == UNWIND_AUTO) {
		log_warn("memory: the kernel refused the table walker (%s), frame pointers instead",
			 strerror(-err));
		err = open_load(m, ctx, false);
	}
	if (err) {
		log_err("cannot load the memory BPF programs: %s", strerror(-err));
		return err;
	}
	return kmaps_fill_pids(bpf_map__fd(m->skel->maps.pids), m->cfg);
}

static void mem_detach(struct collector *c)
{
	struct mem *m = (struct mem *)c;

	if (m->duty_running) {
		pthread_mutex_lock(&m->lock);
		m->stop = 1;
		pthread_cond_signal(&m->wake);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->duty, NULL);
		m->duty_running = 0;
	}
	detach_probes(m);
	for (int i = 0; i < m->nlinks; i++)
		bpf_link__destroy(m->links[i]);
	m->nlinks = 0;
}

static void mem_free(struct collector *c)
{
	struct mem *m = (struct mem *)c;

	if (!m)
		return;
	mem_detach(c);
	mem_bpf__destroy(m->skel);
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->lock);
	sbuf_release(&m->line);
	free(m);
}

/* Probe free first, then start the duty cycle of the allocation probes. */
static int start(struct mem *m)
{
	sigset_t all, old;
	int err;

	err = attach_probes(m);
	if (err) {
		log_err("memory: cannot attach uprobes to '%s': %s", m->libs[0].path,
			strerror(-err));
		return err;
	}
	detach_probes(m); /* the duty cycle attaches them */
	attach_kernel_side(m);
	m->started = m->last_drain = mem_now_ns();
	/* Signals are for the event loop (signalfd): the thread blocks them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&m->duty, NULL, duty_main, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	m->duty_running = !err;
	return err;
}

struct collector *mem_new(const struct collector_ctx *ctx)
{
	struct mem *m = calloc(1, sizeof(*m));
	pthread_condattr_t ca;
	int err;

	if (!m)
		return NULL;
	m->base = (struct collector){ "memory", mem_drain, mem_detach, mem_free };
	m->cfg = ctx->cfg;
	m->sym = ctx->sym;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->wake, &ca);
	pthread_condattr_destroy(&ca);
	err = load(m, ctx);
	err = err ?: find_libs(m);
	err = err ?: start(m);
	if (err)
		goto cleanup;
	log_info(
		"memory: sampling every %llu bytes on average, allocation probes on %u%% of the time, "
		"user stacks from %s",
		(unsigned long long)m->cfg->mem_sample, m->cfg->mem_duty,
		m->dwarf ? "unwind tables" : "frame pointers");
	return &m->base;
cleanup:
	mem_free(&m->base);
	errno = -err;
	return NULL;
}
