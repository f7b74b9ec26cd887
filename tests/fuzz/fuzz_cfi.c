/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_cfi.c - libFuzzer target: unwind tables from an ELF file's CFI. An input of odd size is
 * also its own debug file, so .debug_frame is read too.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/cfi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);
const char *__lsan_default_options(void);

/*
 * elfutils 0.188 leaks elf_strptr's copy of a string table behind a corrupt section header
 * (dwarf_getcfi_elf and elf_end alone show it): not a leak of ours. libelf has no frame
 * pointers: only the slow unwinder sees elf_strptr in the allocation's stack.
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:elf_strptr\n";
}

const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

/* A table must be sorted, end in UNW_CFA_NONE and hold only known rules. */
static void check(const struct cfi_table *t)
{
	if (!t->nrows || t->rows[t->nrows - 1].cfa_rule != UNW_CFA_NONE)
		__builtin_trap();
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].cfa_rule > UNW_CFA_END || t->rows[i].fp_rule > UNW_FP_UNDEF ||
		    (i && t->rows[i].pc <= t->rows[i - 1].pc))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_cfi", 0);
	struct cfi_table t;
	char err[128];

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		__builtin_trap();
	if (!cfi_table_build(fd, size & 1 ? fd : -1, 1 << 16, &t, err, sizeof(err))) {
		check(&t);
		cfi_table_free(&t);
	} else if (!err[0]) {
		__builtin_trap(); /* every error says why */
	}
	close(fd);
	return 0;
}
