/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_bpftrace.c - libFuzzer target: bpftrace map output folding */
#include <stdint.h>
#include <string.h>

#include "collapse/bpftrace.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpftrace_stats st;
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = fuzz_open(data, size);

	if (!f || !in || lines_init(&lr, in))
		abort();
	memset(&st, 0, sizeof(st));
	if (bpftrace_fold(&lr, f, &st) == 0) {
		if (st.entries > st.lines || st.unrecognized > st.lines)
			abort();
		fuzz_check_folded(f);
	}
	lines_release(&lr);
	fclose(in);
	folded_free(f);
	return 0;
}
