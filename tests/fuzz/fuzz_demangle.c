/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_demangle.c - libFuzzer target: demangling of hostile names stays bounded */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1), *out;

	if (!name)
		return 0;
	memcpy(name, data, size);
	name[size] = '\0';
	out = demangle(name);
	if (out && strlen(out) > DEMANGLE_MAX)
		abort();
	free(out);
	free(name);
	return 0;
}
