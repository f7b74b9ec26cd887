/* SPDX-License-Identifier: BSD-2-Clause */
/* ksyms.h - kernel and module function symbols from /proc/kallsyms */
#ifndef EMBER_KSYMS_H
#define EMBER_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksyms;

/*
 * Read a kallsyms file (text symbols of the kernel and its modules), sorted for
 * binary search. Returns 0 or -errno. When every address reads as zero (no
 * privilege) the table is empty and ksyms_restricted() says so.
 */
int ksyms_load(const char *path, struct ksyms **out);
void ksyms_free(struct ksyms *ks);
/* The symbol covering addr (and its module, or NULL for the core kernel), or NULL. */
const char *ksyms_lookup(const struct ksyms *ks, uint64_t addr, const char **module);
int ksyms_restricted(const struct ksyms *ks);
size_t ksyms_count(const struct ksyms *ks);
size_t ksyms_bytes(const struct ksyms *ks);

/* A hash of the loaded modules and their addresses, to notice a change. 0 on error. */
uint64_t ksyms_modules_signature(const char *modules_path);

#endif
