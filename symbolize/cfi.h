/* SPDX-License-Identifier: BSD-2-Clause */
/* cfi.h - unwind tables (bpf/unwind.h rows) built from an ELF file's CFI with libdw */
#ifndef EMBER_CFI_H
#define EMBER_CFI_H

#include <stddef.h>
#include <linux/types.h>
#include "bpf/unwind.h"

struct cfi_table {
	struct unw_row *rows; /* sorted by pc, gaps as UNW_CFA_NONE rows */
	size_t nrows;
	size_t cfi_bytes;   /* bytes of .eh_frame/.debug_frame read */
	size_t unsupported; /* address ranges whose rule could not be expressed (UNW_CFA_NONE) */
	size_t skipped;     /* FDEs dropped as corrupt (bad encoding, range outside the code) */
};

/*
 * Build the table of the ELF file open at fd (not closed). debug_fd, when >= 0, is a separate
 * debug file whose .debug_frame completes the table (fd itself for an unstripped file's own
 * .debug_frame). Returns 0, or -errno with a one-line reason in err: -ENOENT no CFI at all,
 * -EBADMSG corrupt or mostly unreadable CFI, -E2BIG over max_rows rows, -ERANGE code above
 * 4 GiB (rows hold 32-bit pcs), -ENOTSUP not x86-64, -ENOMEM.
 */
int cfi_table_build(int fd, int debug_fd, size_t max_rows, struct cfi_table *t, char *err,
		    size_t errlen);
void cfi_table_free(struct cfi_table *t);

#endif
