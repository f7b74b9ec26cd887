/* SPDX-License-Identifier: BSD-2-Clause */
/* procs.h - process life cycle events from the kernel (first sample, exec, exit) */
#ifndef EMBER_PROCS_H
#define EMBER_PROCS_H

#include <stdint.h>
#include <bpf/libbpf.h>

#include "symbolize/symbolize.h"

struct procs;

/* Load and attach the exec/exit tracker. NULL with errno set. */
struct procs *procs_new(struct symbolizer *sym);
void procs_free(struct procs *p);

/* Make obj's procs_seen and procs_events maps the shared ones; call before loading obj. */
int procs_share(struct procs *p, struct bpf_object *obj);

/*
 * Also tell fn of every process event (enum ember_proc_event_type, pid), after the
 * symbolizer; fn NULL: nobody. One listener.
 */
typedef void (*procs_listener_fn)(void *ctx, uint32_t type, uint32_t pid);
void procs_set_listener(struct procs *p, procs_listener_fn fn, void *ctx);

/* File descriptor to poll; procs_consume() handles what is ready. */
int procs_fd(struct procs *p);
int procs_consume(struct procs *p);

#endif
