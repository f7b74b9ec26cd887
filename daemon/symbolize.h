/* SPDX-License-Identifier: BSD-2-Clause */
/* symbolize.h - name kernel and user addresses of any process on the host */
#ifndef EMBER_SYMBOLIZE_H
#define EMBER_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "collapse/sbuf.h"

struct symbolizer;

struct symbolizer_opts {
	int demangle;	 /* demangle C++ and Rust names */
	int inlines;	 /* expand inlined frames from DWARF, annotated _[i] */
	size_t max_procs; /* cap on cached processes (0: default) */
	size_t max_dsos;  /* cap on cached ELF files (0: default) */
};

struct symbolizer_stats {
	uint64_t frames;	/* frames asked for */
	uint64_t named;		/* frames given a symbol name */
	uint64_t procs, dsos;	/* cache entries now */
	uint64_t cache_bytes;	/* memory held by the caches */
};

/* NULL on error (errno set). */
struct symbolizer *symbolizer_new(const struct symbolizer_opts *opts);
void symbolizer_free(struct symbolizer *s);

/*
 * Append the frames of one stack to out, root first, each followed by ';'.
 * ips are leaf first, as bpf_get_stackid() stores them; kernel selects kernel
 * symbols (written name_[k]) or the user space of pid. Unnamed frames are
 * written module+0xOFFSET, or [unknown]. Returns frames appended or -errno.
 */
int symbolizer_append_stack(struct symbolizer *s, uint32_t pid, const uint64_t *ips, int n,
			    int kernel, struct sbuf *out);

/*
 * pid was seen for the first time (the collector reports it at its first sample):
 * read and cache its mappings now, while it lives, so that its stacks can be
 * named after it exits. Returns 0 or -errno (the process may be gone already).
 */
int symbolizer_note_pid(struct symbolizer *s, uint32_t pid);
/* pid ran exec: its mappings are stale. */
void symbolizer_note_exec(struct symbolizer *s, uint32_t pid);
/* pid exited: keep what is cached until the end of the window, then forget it. */
void symbolizer_note_exit(struct symbolizer *s, uint32_t pid);
/* A window was written: drop processes that exited, trim caches to their caps. */
void symbolizer_end_window(struct symbolizer *s);

void symbolizer_get_stats(const struct symbolizer *s, struct symbolizer_stats *st);

#endif
