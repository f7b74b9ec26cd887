/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_pprofread.c - libFuzzer target: the pprof reader on hostile profile.proto bytes */
#include <stdint.h>
#include <stdlib.h>

#include "collapse/pprofread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pprof_profile p;

	pprof_sniff(data, size);
	if (pprof_parse(&p, data, size))
		return 0;
	if (p.ntypes < 1 || p.ntypes > PPROF_MAX_TYPES || p.default_type >= p.ntypes)
		abort();
	for (int t = 0; t < p.ntypes; t++)
		if (!p.type[t] || !p.unit[t] || !p.f[t] || !folded_sorted(p.f[t]))
			abort();
	pprof_profile_release(&p);
	return 0;
}
