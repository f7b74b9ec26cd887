/* SPDX-License-Identifier: BSD-2-Clause */
/* inlines.h - the functions inlined at an address, from the DWARF of an ELF file (libdw) */
#ifndef EMBER_INLINES_H
#define EMBER_INLINES_H

#include <stdint.h>

struct inlines;

/* The DWARF of the ELF open on fd (fd is duplicated). NULL when it has none, or on error. */
struct inlines *inlines_open(int fd);
void inlines_free(struct inlines *in);

/*
 * Names of the functions inlined at the ELF's virtual address vaddr, outermost
 * first, into names[0..cap). They live as long as in. Returns their count.
 */
int inlines_at(struct inlines *in, uint64_t vaddr, const char **names, int cap);

#endif
