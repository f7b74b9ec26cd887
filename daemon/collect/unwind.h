/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unwind.h - the unwind table loader: for each process the collectors see, build the tables
 * of its executable files from their CFI (symbolize/cfi.h), put them in the maps the BPF
 * walker reads (bpf/unwind_maps.h) with the process's mapping list, and forget the process
 * when it exits. Tables are shared by every process mapping the file and evicted least
 * recently used first under --unwind-max-mb. The work runs on a thread of its own, so the
 * event loop never waits for a table build.
 */
#ifndef EMBER_UNWIND_LOADER_H
#define EMBER_UNWIND_LOADER_H

#include <stdint.h>
#include <bpf/libbpf.h>

#include "daemon/collect/window.h"
#include "daemon/config/config.h"

enum unwind_mode {
	UNWIND_AUTO,  /* tables where the kernel takes the walker, else frame pointers */
	UNWIND_FP,    /* frame pointers only (bpf_get_stackid), as before tables existed */
	UNWIND_DWARF, /* tables, or the collectors fail to start */
};

struct unwind;

/* Create the maps and start the loader thread. NULL with errno set (logged). */
struct unwind *unwind_new(const struct config *cfg);
void unwind_free(struct unwind *u);

/* Make obj's unwind maps the shared ones; call before loading obj. Returns 0 or -errno. */
int unwind_share(struct unwind *u, struct bpf_object *obj);

/* A process event (enum ember_proc_event_type) for pid: queued, handled by the thread. */
void unwind_note(void *u, uint32_t type, uint32_t pid);

struct unwind_stats {
	uint64_t tables;      /* files with a table loaded */
	uint64_t table_bytes; /* kernel memory of their rows */
	uint64_t cap_bytes;   /* --unwind-max-mb */
	uint64_t builds;      /* tables built since start */
	uint64_t build_fails; /* files without a usable table (no CFI, corrupt, too big) */
	uint64_t build_ns;    /* time spent building */
	uint64_t cfi_bytes;   /* CFI read to build them */
	uint64_t evictions;   /* tables evicted for room */
	uint64_t procs;       /* processes with a mapping list */
	uint64_t queue_drops; /* events dropped: queue full */
};

void unwind_get_stats(struct unwind *u, struct unwind_stats *st);

/* Add one drain's walks to the window's figures and log them at debug level as "WHO: ...". */
void unwind_count_walks(const char *who, const struct unwind_walks *w, struct window_stats *ws);

#endif
