/* SPDX-License-Identifier: BSD-2-Clause */
/* perfmap.h - JIT symbols from /tmp/perf-PID.map, read defensively */
#ifndef EMBER_PERFMAP_H
#define EMBER_PERFMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bounds on what a perf map can make us read and keep (and all of them: SYM_PERFMAP_BUDGET). */
#define PERFMAP_MAX_BYTES (64u << 20)
#define PERFMAP_MAX_LINE 4096
#define PERFMAP_MAX_ENTRIES (2u << 20)

struct perfmap;

/*
 * Open name under the directory dirfd treated as the root (symbolic links are
 * refused anywhere on the way), and read it. Trusted only when it is a regular
 * file owned by uid or by root. The file stays open so that it can be reread
 * after the process exits. Returns 0 or -errno (-EPERM: untrusted).
 */
int perfmap_open(int dirfd, const char *name, uid_t uid, struct perfmap **out);
/* Reread the file when it grew. Returns 1 if reread, 0 if unchanged, or -errno. */
int perfmap_refresh(struct perfmap *pm);
/* Parse perf map text into pm, replacing what it held (exposed for tests). */
int perfmap_parse(struct perfmap *pm, const char *text, size_t len);
struct perfmap *perfmap_new_empty(void);
/* The JIT symbol covering addr, or NULL. */
const char *perfmap_lookup(const struct perfmap *pm, uint64_t addr);
size_t perfmap_count(const struct perfmap *pm);
size_t perfmap_bytes(const struct perfmap *pm);
/* Whether two maps were read from one file (hard links, or one path for several PIDs). */
int perfmap_same_file(const struct perfmap *a, const struct perfmap *b);
/* One more holder of pm; each perfmap_free() lets one go, the last frees it. */
struct perfmap *perfmap_hold(struct perfmap *pm);
int perfmap_refs(const struct perfmap *pm);
void perfmap_free(struct perfmap *pm);

#endif
