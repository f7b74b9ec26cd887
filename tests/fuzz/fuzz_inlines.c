/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_inlines.c - libFuzzer target: inlined frames from the DWARF of a hostile ELF file (libdw) */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/inlines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[8];
	struct inlines *in;
	int fd = memfd_create("fuzz_inlines", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size && (in = inlines_open(fd))) {
		/* A spread of addresses, small ones (typical vaddrs) and the input's own words. */
		for (uint64_t a = 0; a < 0x10000; a += 0x400)
			inlines_at(in, a, names, 8);
		for (size_t i = 0; i + 8 <= size && i < 4096; i += 64)
			inlines_at(in, *(const uint64_t *)(const void *)(data + i), names, 8);
		inlines_free(in);
	}
	close(fd);
	return 0;
}
