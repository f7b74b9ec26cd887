/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_flamegraph.c - libFuzzer target: folded text through the reader, the renderer and diff */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/folded.h"
#include "render/diff.h"
#include "render/flamegraph.h"
#include "render/xmlesc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks options, so that every mode sees every input. */
static void options(struct fg_opts *o, uint8_t sel)
{
	fg_opts_init(o);
	o->width = sel & 1 ? 0 : 1200;
	o->inverted = !!(sel & 2);
	o->reverse = !!(sel & 4);
	o->flamechart = !!(sel & 8);
	o->palette = (enum palette)((sel >> 4) % PAL_MAX);
	o->color_mode = sel & 0x40 ? COLOR_BY_HASH : COLOR_BY_NAME;
	o->minwidth = sel & 0x80 ? 0 : 0.1;
	o->title = "<t>";
	o->subtitle = "]]>";
}

static void render(const char *text, size_t len, uint8_t sel)
{
	struct folded *f = folded_new();
	FILE *in = fmemopen((void *)text, len ? len : 1, "r"), *out = fopen("/dev/null", "w");
	struct fg_opts o;

	options(&o, sel);
	if (f && in && out && len && !folded_read(f, in, NULL))
		flamegraph_write(f, &o, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	folded_free(f);
}

static void diff(const char *text, size_t len, uint8_t sel)
{
	struct diff_opts o = { sel & 1, sel & 2 };
	struct diff *d = diff_new(&o);
	FILE *out = fopen("/dev/null", "w");
	uint64_t ignored = 0;

	if (d && out && !diff_add_text(d, 0, text, len / 2, &ignored) &&
	    !diff_add_text(d, 1, text + len / 2, len - len / 2, &ignored))
		diff_write(d, out);
	if (out)
		fclose(out);
	diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf sb = SBUF_INIT;

	if (size < 1)
		return 0;
	render((const char *)data + 1, size - 1, data[0]);
	diff((const char *)data + 1, size - 1, data[0]);
	if (!xml_escape(&sb, (const char *)data, size) && memmem(sb.buf, sb.len, "<", 1))
		abort(); /* escaped text never holds markup */
	sbuf_release(&sb);
	return 0;
}
