/* SPDX-License-Identifier: BSD-2-Clause */
/* symbolize.h - name kernel and user addresses of any process on the host */
#ifndef EMBER_SYMBOLIZE_H
#define EMBER_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/sbuf.h"
#include "symbolize/debuginfod.h"
#include "symbolize/procmaps.h"

struct symbolizer;

struct symbolizer_opts {
	int demangle;     /* demangle C++ and Rust names */
	int inlines;      /* expand inlined frames from DWARF, annotated _[i] */
	size_t max_procs; /* cap on cached processes (0: default) */
	size_t max_dsos;  /* cap on cached ELF files (0: default) */
	/* The fields below may stay zero. */
	const char *kallsyms;    /* NULL: /proc/kallsyms (then module changes are noticed) */
	const char *debug_root;  /* NULL: /usr/lib/debug */
	const char *perfmap_dir; /* NULL: /tmp as the process sees it; else a host directory */
	int refresh_ms;          /* least interval between rereads of a live process's maps
				    or perf map on a miss (0: 200 ms, < 0: every miss) */
	/* debuginfod servers asked for the debug files of stripped files (NULL: none) */
	const char *debuginfod_urls;
	const char *debuginfod_cache;        /* its cache directory (required with urls) */
	unsigned int debuginfod_timeout_sec; /* bound on each lookup (required with urls) */
};

struct symbolizer_stats {
	uint64_t frames;              /* frames asked for */
	uint64_t named;               /* frames given a symbol name */
	uint64_t procs, dsos;         /* cache entries now */
	uint64_t max_procs, max_dsos; /* their caps (files: idle ones kept) */
	uint64_t dsos_pending;        /* files whose symbols were not needed yet (read lazily) */
	uint64_t cache_bytes;         /* memory held by the caches */
	uint64_t symsets;          /* distinct symbol tables (files sharing a build-id share one) */
	uint64_t elf_loads;        /* ELF files parsed since start */
	uint64_t debug_files;      /* separate debug files used since start */
	uint64_t maps_reads;       /* /proc/PID/maps reads since start */
	uint64_t perfmaps;         /* processes with a trusted perf map now */
	uint64_t exit_maps;        /* exit records with mappings received since start */
	uint64_t procs_evicted;    /* processes dropped early to keep max_procs, since start */
	uint64_t perfmaps_bytes;   /* all perf maps held now, a shared one once */
	uint64_t perfmaps_refused; /* perf maps dropped at the budget, since start */
	int kernel_restricted;     /* kallsyms reads as zeros: kernel frames are [kernel]+0x... */
	int debuginfod;            /* debuginfod is on; its lookups: */
	struct dinfod_stats dinfod;
};

/* NULL on error (errno set). opts may be NULL: demangling on, default caps. */
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

/* An executable mapping as the kernel saw it when the process exited: a file by identity. */
struct symbolizer_vma {
	uint64_t start, end, pgoff;
	uint64_t dev, ino, size; /* dev as stat() encodes it */
	int64_t mtime_ns;
	enum procmap_kind kind; /* PROCMAP_FILE, PROCMAP_VDSO or PROCMAP_ANON */
};

/*
 * pid exited with these mappings (sorted by address): they replace what was
 * read from /proc, so that its samples are named even if the process was never
 * seen alive. Files are found among those already read (by device, inode, size
 * and mtime). An incomplete list (the process had too many) is used only for a
 * process without maps. n == 0 is a plain symbolizer_note_exit(). Returns 0 or
 * -errno.
 */
int symbolizer_note_exit_maps(struct symbolizer *s, uint32_t pid, const struct symbolizer_vma *v,
			      int n, int complete);

/*
 * sync(ctx) is called when a process is found gone before its exit was
 * noted: it delivers the pending exit records (with their mappings).
 */
void symbolizer_set_sync(struct symbolizer *s, void (*sync)(void *ctx), void *ctx);
/* A window was written: drop processes that exited, trim caches to their caps. */
void symbolizer_end_window(struct symbolizer *s);

void symbolizer_get_stats(const struct symbolizer *s, struct symbolizer_stats *st);
/* Frames asked for and frames named since start: cheap, for per-window shares. */
void symbolizer_frame_counts(const struct symbolizer *s, uint64_t *frames, uint64_t *named);

#endif
