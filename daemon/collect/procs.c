/* SPDX-License-Identifier: BSD-2-Clause */
/* procs.c - process life cycle events: tell the symbolizer when to read maps and forget */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "lib/log.h"
#include "daemon/collect/procs.h"
#include "procs.skel.h"

struct procs {
	struct procs_bpf *skel;
	struct ring_buffer *rb;
	struct symbolizer *sym;
	procs_listener_fn listener;
	void *listener_ctx;
	struct symbolizer_vma vmas[EMBER_PROC_MAX_VMAS];
};

static const enum procmap_kind vma_kinds[] = {
	[EMBER_VMA_FILE] = PROCMAP_FILE,
	[EMBER_VMA_ANON] = PROCMAP_ANON,
	[EMBER_VMA_VDSO] = PROCMAP_VDSO,
};

/* The last thread exited: its mappings came along, read before the kernel freed them. */
static void on_exit_event(struct procs *p, const struct ember_proc_exit *e, size_t size)
{
	size_t n = e->nvmas;

	if (size < offsetof(struct ember_proc_exit, vmas) + n * sizeof(e->vmas[0]) ||
	    n > EMBER_PROC_MAX_VMAS)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ember_vma *v = &e->vmas[i];

		p->vmas[i] = (struct symbolizer_vma){
			.start = v->start,
			.end = v->end,
			.pgoff = v->pgoff,
			.dev = makedev(v->dev >> 20, v->dev & 0xfffff),
			.ino = v->ino,
			.size = v->size,
			.mtime_ns = v->mtime_ns,
			.kind = v->kind <= EMBER_VMA_VDSO ? vma_kinds[v->kind] : PROCMAP_OTHER,
		};
	}
	if (symbolizer_note_exit_maps(p->sym, e->hdr.pid, p->vmas, (int)n, !e->truncated))
		symbolizer_note_exit(p->sym, e->hdr.pid);
}

/*
 * Ring buffer callback: new, exec and exit to the symbolizer (an exit with mappings through
 * on_exit_event()), then to the listener; a record shorter than a header is ignored. Returns 0.
 */
static int on_event(void *ctx, void *data, size_t size)
{
	struct procs *p = ctx;
	const struct ember_proc_event *e = data;

	if (size < sizeof(*e))
		return 0;
	switch (e->type) {
	case EMBER_PROC_NEW:
		symbolizer_note_pid(p->sym, e->pid);
		break;
	case EMBER_PROC_EXEC:
		symbolizer_note_exec(p->sym, e->pid);
		break;
	case EMBER_PROC_EXIT:
		if (size >= offsetof(struct ember_proc_exit, vmas))
			on_exit_event(p, data, size);
		else
			symbolizer_note_exit(p->sym, e->pid);
		break;
	}
	if (p->listener)
		p->listener(p->listener_ctx, e->type, e->pid);
	return 0;
}

void procs_set_listener(struct procs *p, procs_listener_fn fn, void *ctx)
{
	p->listener = fn;
	p->listener_ctx = ctx;
}

/* The symbolizer found a process gone: its exit record may still be in the ring. */
static void procs_sync(void *ctx)
{
	struct procs *p = ctx;

	ring_buffer__consume(p->rb);
}

struct procs *procs_new(struct symbolizer *sym)
{
	struct procs *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return NULL;
	p->sym = sym;
	p->skel = procs_bpf__open_and_load();
	if (!p->skel) {
		err = -errno;
		log_err("cannot load the process tracker: %s%s", strerror(-err),
			err == -EPERM ? " (emberd needs CAP_PERFMON)" : "");
		goto cleanup;
	}
	err = procs_bpf__attach(p->skel);
	if (err) {
		log_err("cannot attach the process tracker: %s", strerror(-err));
		goto cleanup;
	}
	p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.procs_events), on_event, p, NULL);
	if (!p->rb) {
		err = -errno;
		log_err("cannot open the process ring buffer: %s", strerror(-err));
		goto cleanup;
	}
	symbolizer_set_sync(sym, procs_sync, p);
	return p;
cleanup:
	procs_free(p);
	errno = -err;
	return NULL;
}

void procs_free(struct procs *p)
{
	if (!p)
		return;
	if (p->rb)
		symbolizer_set_sync(p->sym, NULL, NULL);
	ring_buffer__free(p->rb);
	procs_bpf__destroy(p->skel);
	free(p);
}

int procs_share(struct procs *p, struct bpf_object *obj)
{
	static const char *const names[] = { "procs_seen", "procs_events" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct bpf_map *ours = bpf_object__find_map_by_name(p->skel->obj, names[i]);
		struct bpf_map *theirs = bpf_object__find_map_by_name(obj, names[i]);
		int err;

		if (!ours || !theirs)
			return -ENOENT;
		err = bpf_map__reuse_fd(theirs, bpf_map__fd(ours));
		if (err)
			return err;
	}
	return 0;
}

int procs_fd(struct procs *p)
{
	return ring_buffer__epoll_fd(p->rb);
}

int procs_consume(struct procs *p)
{
	int n = ring_buffer__consume(p->rb);

	return n < 0 ? n : 0;
}
