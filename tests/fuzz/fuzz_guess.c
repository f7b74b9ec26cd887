/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_guess.c - libFuzzer target: format guessing, and the guessed parser on the same input */
#include <stdint.h>
#include <string.h>

#include "collapse/bpftrace.h"
#include "collapse/guess.h"
#include "collapse/perfscript.h"
#include "collapse/stap.h"
#include "fuzz_input.h"

static int fold_as(enum stack_format fmt, struct lines *lr, struct folded *f)
{
	struct perfscript_opts opts = { 0 };
	struct perfscript_stats pst;
	struct bpftrace_stats bst;
	struct stap_stats sst;

	switch (fmt) {
	case FORMAT_PERF:
		return perfscript_fold(lr, &opts, f, &pst);
	case FORMAT_BPFTRACE:
		return bpftrace_fold(lr, f, &bst);
	case FORMAT_STAP:
		return stap_fold(lr, f, &sst);
	case FORMAT_FOLDED:
		return folded_read_lines(f, lr, NULL);
	default:
		return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum stack_format fmt = guess_format((const char *)data, size);
	struct folded *f = folded_new();
	struct lines lr;
	FILE *in = fuzz_open(data, size);

	if (fmt < FORMAT_UNKNOWN || fmt > FORMAT_FOLDED || !f || !in || lines_init(&lr, in))
		abort();
	if (fold_as(fmt, &lr, f) == 0)
		fuzz_check_folded(f);
	lines_release(&lr);
	fclose(in);
	folded_free(f);
	return 0;
}
