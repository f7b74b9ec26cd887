/* SPDX-License-Identifier: BSD-2-Clause */
/* uprobes.h - find functions in an ELF file and attach multi-uprobes (and sessions) to them */
#ifndef EMBER_UPROBES_H
#define EMBER_UPROBES_H

#include <stddef.h>
#include <stdint.h>

struct uprobes_sym {
	uint64_t vaddr;  /* ELF virtual address; 0: not found */
	uint64_t offset; /* file offset, what uprobes take */
};

/*
 * Look up each of names (prefix + name) among the functions of the ELF file at
 * path, and its executable range. Returns the number found, or -errno.
 */
int uprobes_resolve(const char *path, const char *prefix, const char *const *names, size_t n,
		    struct uprobes_sym *out, uint64_t *text_lo, uint64_t *text_hi);

/*
 * Attach prog_fd (loaded for attach_type BPF_TRACE_UPROBE_MULTI or _SESSION) to
 * n offsets of path with per-offset cookies, for one process (pid) or all (0).
 * Returns the link fd or -errno. libbpf 1.1 has no API for these link types.
 */
int uprobes_attach(int prog_fd, unsigned int attach_type, const char *path, const uint64_t *offsets,
		   const uint64_t *cookies, size_t n, uint32_t pid);

#define UPROBES_MULTI 48   /* BPF_TRACE_UPROBE_MULTI */
#define UPROBES_SESSION 57 /* BPF_TRACE_UPROBE_SESSION */

#endif
