/* SPDX-License-Identifier: BSD-2-Clause */
/* addr2line.h - the inlined frames at an address, as stackcollapse-perf.pl --inline gets them */
#ifndef EMBER_ADDR2LINE_H
#define EMBER_ADDR2LINE_H

#include <stdbool.h>
#include <stddef.h>

struct addr2line;

/* context: each frame gets ":file:line", as --context. NULL on -ENOMEM. */
struct addr2line *addr2line_new(bool context);
void addr2line_free(struct addr2line *a);

/*
 * The frames at pc (hex, as `perf script` prints it) in the file mod, outermost first and
 * joined by ';', as `addr2line -a PC -e MOD -i -f -s -C` through the Perl would give them,
 * found with libdw (the file's DWARF or its separate debug file) without a process per
 * address. When the address is not in the file's sections and sym is "func+0xOFF", func's
 * address in the symbol table plus OFF is tried, as the Perl's `nm` fallback. Sets *out to
 * NULL when nothing is known (the caller keeps the symbol), else to a string valid until
 * addr2line_free(). Each (mod, pc) is resolved once. Returns 0 or -ENOMEM.
 */
int addr2line_frames(struct addr2line *a, const char *pc, size_t pclen, const char *sym,
		     size_t symlen, const char *mod, size_t modlen, const char **out, size_t *len);

#endif
