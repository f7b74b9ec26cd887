/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_folded.c - libFuzzer target: the folded reader, line parser, filter and sort */
#include <stdint.h>
#include <string.h>

#include "collapse/folded.h"
#include "fuzz_input.h"

static void add_all(struct folded *dst, const struct folded *src)
{
	const struct folded_entry *e;
	size_t it = 0;

	while ((e = folded_next(src, &it)))
		if (folded_add_entry(dst, e))
			abort();
}

/* Filters of every kind over what was read; the kept and the dropped add up to the whole. */
static void check_filter(struct folded *f, const struct folded_filter *flt)
{
	struct folded_filter inv = *flt;
	struct folded *kept = folded_new(), *dropped = folded_new(), *both = folded_new();

	if (!kept || !dropped || !both)
		abort();
	inv.invert = !flt->invert;
	if (folded_filter(kept, f, flt) || folded_filter(dropped, f, &inv))
		abort();
	add_all(both, kept);
	add_all(both, dropped);
	if (folded_count(both) != folded_count(f) || folded_total(both) != folded_total(f))
		abort();
	folded_free(both);
	folded_free(dropped);
	folded_free(kept);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_filter by_comm = { .comm = "a", .pid = -1 };
	struct folded_filter by_pid = { .pid = 1 };
	struct folded_filter by_re = { .pid = -1, .frame_re = "^[a-c]+$" };
	struct folded_read_stats st;
	struct folded_line line;
	struct folded *f = folded_new();
	FILE *in = fuzz_open(data, size);

	if (!f || !in)
		abort();
	folded_parse_line((const char *)data, size, &line);
	if (folded_read(f, in, &st) == 0) {
		if (st.ignored > st.lines)
			abort();
		fuzz_check_folded(f);
		if (!folded_sorted_by(f, FOLDED_BY_WEIGHT))
			abort();
		check_filter(f, &by_comm);
		check_filter(f, &by_pid);
		check_filter(f, &by_re);
	}
	fclose(in);
	folded_free(f);
	return 0;
}
