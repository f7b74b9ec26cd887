/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_stap.c - libFuzzer target: SystemTap backtrace folding */
#include <stdint.h>
#include <string.h>

#include "collapse/stap.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stap_stats st;
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = fuzz_open(data, size);

	if (!f || !in || lines_init(&lr, in))
		abort();
	memset(&st, 0, sizeof(st));
	if (stap_fold(&lr, f, &st) == 0) {
		if (st.stacks > st.lines)
			abort();
		fuzz_check_folded(f);
	}
	lines_release(&lr);
	fclose(in);
	folded_free(f);
	return 0;
}
