/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_perfmap.c - libFuzzer target: perf-PID.map and /proc/PID/maps text parsing */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "symbolize/perfmap.h"
#include "symbolize/procmaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap *pm = perfmap_new_empty();
	struct procmap *maps;
	int n;

	if (pm && !perfmap_parse(pm, (const char *)data, size)) {
		for (size_t i = 0; i + 8 <= size; i += 8) {
			uint64_t a;

			memcpy(&a, data + i, 8);
			perfmap_lookup(pm, a);
		}
	}
	perfmap_free(pm);
	n = procmaps_parse((const char *)data, size, &maps);
	if (n >= 0)
		procmaps_free(maps, n);
	return 0;
}
