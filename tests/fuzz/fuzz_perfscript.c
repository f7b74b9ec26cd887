/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_perfscript.c - libFuzzer target: `perf script` folding, every option, then --merge-recursion */
#include <stdint.h>
#include <string.h>

#include "collapse/perfscript.h"
#include "collapse/recursion.h"
#include "fuzz_input.h"

/* The first byte picks the options, so one corpus covers all of their combinations. */
static void pick_opts(uint8_t b, struct perfscript_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = b & 1;
	o->tid = b & 2;
	o->kernel = b & 4;
	o->jit = b & 8;
	o->addrs = b & 16;
	o->srcline = b & 32;
	o->event = (b & 64) ? "cpu-clock" : NULL;
	o->inlined = b & 128; /* reads the real files the input names, such as the seeds' libc */
	o->context = b & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfscript_opts opts;
	struct perfscript_stats st;
	struct folded *f = folded_new(), *flat = folded_new();
	struct lines lr;
	FILE *in;

	if (!f || !flat)
		abort();
	pick_opts(size ? data[0] : 0, &opts);
	in = size ? fuzz_open(data + 1, size - 1) : fuzz_open(data, 0);
	if (!in || lines_init(&lr, in))
		abort();
	memset(&st, 0, sizeof(st));
	if (perfscript_fold(&lr, &opts, f, &st) == 0) {
		if (st.records + st.filtered > st.lines)
			abort();
		fuzz_check_folded(f);
		if (folded_merge_recursion(flat, f) == 0)
			fuzz_check_folded(flat);
	}
	lines_release(&lr);
	fclose(in);
	folded_free(flat);
	folded_free(f);
	return 0;
}
