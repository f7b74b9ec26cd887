/* SPDX-License-Identifier: BSD-2-Clause */
/* procs.c - process life cycle events: tell the symbolizer when to read maps and forget */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/common.h"
#include "daemon/log.h"
#include "daemon/procs.h"
#include "procs.skel.h"

struct procs {
	struct procs_bpf *skel;
	struct ring_buffer *rb;
	struct symbolizer *sym;
};

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
		symbolizer_note_exit(p->sym, e->pid);
		break;
	}
	return 0;
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
		log_err("cannot load the process tracker: %s", strerror(-err));
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
