/* SPDX-License-Identifier: BSD-2-Clause */
/* elfsyms.h - the function symbols, load segments and identity of one ELF file */
#ifndef EMBER_ELFSYMS_H
#define EMBER_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

#define ELFSYMS_BUILD_ID_MAX 64

struct elfsyms;

struct elfsyms_info {
	uint8_t build_id[ELFSYMS_BUILD_ID_MAX];
	size_t build_id_len;   /* 0: none */
	const char *debuglink; /* .gnu_debuglink file name, or NULL */
	uint32_t debuglink_crc;
	int has_symtab;    /* a .symtab was read (not only .dynsym) */
	int has_debugdata; /* a .gnu_debugdata (MiniDebugInfo) was read */
};

/*
 * Read an ELF file: PT_LOAD segments, build-id, debuglink, function symbols (and
 * labels in code, after any function at the same address) from .symtab, else .dynsym
 * plus MiniDebugInfo. The file is read, never mapped, so a binary truncated under us
 * cannot fault. Returns 0 or -errno (-ENOEXEC: not ELF).
 */
int elfsyms_load_fd(int fd, struct elfsyms **out);
int elfsyms_load_mem(const void *buf, size_t len, struct elfsyms **out);

/* Only the build-id of an ELF file. Returns its length, 0 when absent, or -errno. */
int elfsyms_read_build_id(int fd, uint8_t *id, size_t cap);

/*
 * Replace the symbols of es by the .symtab of a separate debug file (same
 * layout). Returns 0 or -errno (-ENOENT: that file has no .symtab).
 */
int elfsyms_use_debug_fd(struct elfsyms *es, int fd);

void elfsyms_free(struct elfsyms *es);
const struct elfsyms_info *elfsyms_info(const struct elfsyms *es);

/* File offset to the ELF's own virtual address. Returns 0 or -ENOENT. */
int elfsyms_off_to_vaddr(const struct elfsyms *es, uint64_t off, uint64_t *vaddr);

/* Index of the symbol covering vaddr, or -1. */
long elfsyms_find(const struct elfsyms *es, uint64_t vaddr);
const char *elfsyms_name(const struct elfsyms *es, long idx);
uint64_t elfsyms_addr(const struct elfsyms *es, long idx);

/* A second name for symbol idx (e.g. demangled), owned by es from now on. */
const char *elfsyms_alt_name(const struct elfsyms *es, long idx);
int elfsyms_set_alt_name(struct elfsyms *es, long idx, char *name);

size_t elfsyms_count(const struct elfsyms *es);
size_t elfsyms_bytes(const struct elfsyms *es);

#endif
