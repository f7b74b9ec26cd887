/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_elf.c - libFuzzer target: ELF loading (headers, symbols, notes, debuglink, MiniDebugInfo) */
#include <stddef.h>
#include <stdint.h>

#include "symbolize/elfsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsyms *es;
	uint64_t vaddr;

	if (elfsyms_load_mem(data, size, &es))
		return 0;
	/* Walk every symbol and a spread of lookups over what was loaded. */
	for (size_t i = 0; i < elfsyms_count(es); i++) {
		uint64_t a = elfsyms_addr(es, (long)i);

		(void)elfsyms_name(es, (long)i);
		if (elfsyms_find(es, a) < 0)
			__builtin_trap(); /* a symbol must cover its own first byte */
		elfsyms_find(es, a - 1);
	}
	for (uint64_t off = 0; off < size; off += 512)
		if (!elfsyms_off_to_vaddr(es, off, &vaddr))
			elfsyms_find(es, vaddr);
	(void)elfsyms_info(es)->debuglink;
	elfsyms_free(es);
	return 0;
}
