/* SPDX-License-Identifier: BSD-2-Clause */
/* test_render.c - XML escaping, UTF-8, palettes, numbers and the flame graph library */
#include <errno.h>
#include <stdlib.h>

#include "lib/sbuf.h"
#include "render/diff.h"
#include "render/fgattr.h"
#include "render/fgnum.h"
#include "render/fgsvg.h"
#include "render/fgtree.h"
#include "render/flamegraph.h"
#include "render/palette.h"
#include "render/xmlesc.h"
#include "harness.h"

static char *escaped(const char *s, size_t len)
{
	struct sbuf sb = SBUF_INIT;

	if (xml_escape(&sb, s, len) || sbuf_addch(&sb, '\0'))
		return NULL;
	return sb.buf;
}

TEST(escape_markup_and_quotes)
{
	const char *in = "<a href=\"x\">&'</a>";
	char *s = escaped(in, strlen(in));

	ASSERT_EQ_STR(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	free(s);
}

TEST(escape_replaces_controls_and_bad_utf8)
{
	/* ESC, NUL, a lone continuation byte, an overlong '/', a surrogate, past U+10FFFF */
	static const char in[] = "a\x1b"
				 "b\0c\x80\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80z";
	char *s = escaped(in, sizeof(in) - 1);

	/* one U+FFFD per byte that starts no valid character: 1 + 2 + 3 + 4 after "c" */
	ASSERT_EQ_STR(s, "a\xef\xbf\xbd"
			 "b\xef\xbf\xbd"
			 "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			 "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			 "\xef\xbf\xbdz");
	free(s);
}

TEST(escape_keeps_valid_utf8)
{
	char *s = escaped("größe 日本 🔥", strlen("größe 日本 🔥"));

	ASSERT_EQ_STR(s, "größe 日本 🔥");
	free(s);
}

TEST(utf8_counts_characters)
{
	ASSERT_EQ_INT(utf8_count("größe", strlen("größe")), 5);
	ASSERT_EQ_INT(utf8_prefix("größe", strlen("größe"), 3), 4);
	ASSERT_EQ_INT(utf8_count("\xff\xfe", 2), 2);
}

TEST(palette_matches_flamegraph_pl)
{
	/* flamegraph.pl: srand(sum of characters); rand(1); hot: 205+50v, 230v, 55v */
	struct rgb c = palette_color(PAL_HOT, COLOR_BY_NAME, "main", 4, 0);

	ASSERT_EQ_INT(c.r, 243);
	ASSERT_EQ_INT(c.g, 179);
	ASSERT_EQ_INT(c.b, 42);
	c = palette_color(PAL_HOT, COLOR_BY_NAME, "", 0, 0);
	ASSERT_EQ_INT(c.r, 213);
}

TEST(offcpu_frames_are_blue_in_any_palette)
{
	for (int p = 0; p < PAL_MAX; p++) {
		struct rgb c = palette_color((enum palette)p, COLOR_BY_NAME, "schedule_[o]", 12, 0);

		ASSERT_TRUE(c.b >= 205 && c.r == c.g && c.r < 141);
	}
}

TEST(palette_names)
{
	ASSERT_EQ_INT(palette_parse("hot"), PAL_HOT);
	ASSERT_EQ_INT(palette_parse("rust"), PAL_RUST);
	ASSERT_EQ_INT(palette_parse("python"), PAL_PYTHON);
	ASSERT_EQ_INT(palette_parse("nope"), -1);
	ASSERT_TRUE(palette_valid_color("rgb(1,2,3)"));
	ASSERT_TRUE(palette_valid_color("#a0b0c0"));
	ASSERT_TRUE(!palette_valid_color("rgb(1,2,3)\" onload=\"x"));
	ASSERT_TRUE(!palette_valid_color("#12345g"));
}

TEST(diff_colours)
{
	struct rgb up = palette_diff(10, 10, 0), down = palette_diff(-5, 10, 0);

	ASSERT_EQ_INT(up.r, 255);
	ASSERT_EQ_INT(up.g, 0);
	ASSERT_EQ_INT(down.b, 255);
	ASSERT_EQ_INT(down.r, 105);
	up = palette_diff(10, 10, 1);
	ASSERT_EQ_INT(up.b, 255);
}

TEST(numbers_print_as_perl)
{
	char b[FGNUM_MAX];

	fgnum_fixed(b, 83.25, 1); /* a tie: printf rounds to even */
	ASSERT_EQ_STR(b, "83.2");
	fgnum_fixed(b, 0.15, 1); /* 0.1499999...: down */
	ASSERT_EQ_STR(b, "0.1");
	fgnum_fixed(b, 1180, 1);
	ASSERT_EQ_STR(b, "1180.0");
	fgnum_fixed(b, 13.004, 2);
	ASSERT_EQ_STR(b, "13.00");
	fgnum_perl(b, 47.5);
	ASSERT_EQ_STR(b, "47.5");
	fgnum_perl(b, 1157);
	ASSERT_EQ_STR(b, "1157");
	fgnum_commas(b, 3344481);
	ASSERT_EQ_STR(b, "3,344,481");
	fgnum_commas(b, 999);
	ASSERT_EQ_STR(b, "999");
	fgnum_commas(b, 1e300); /* huge: no overflow */
	ASSERT_TRUE(strlen(b) < FGNUM_MAX);
}

TEST(tree_merges_sorted_stacks)
{
	struct fg_row rows[] = {
		{ "a;b", 3, 2, 0 },
		{ "a;b;c", 5, 3, 0 },
		{ "x", 1, 5, 0 },
	};
	struct fg_opts o;
	struct fg_tree t;

	fg_opts_init(&o);
	o.minwidth = 0;
	ASSERT_EQ_INT(fg_tree_build(&t, rows, 3, 0, &o), 0);
	/* c, b, a, x, root: children before parents */
	ASSERT_EQ_INT(t.n, 5);
	ASSERT_EQ_INT(t.depthmax, 3);
	ASSERT_NEAR(t.time, 10, 0);
	ASSERT_EQ_INT(t.frames[0].depth, 3);
	ASSERT_NEAR(t.frames[0].stime, 2, 0);
	ASSERT_NEAR(t.frames[0].etime, 5, 0);
	ASSERT_NEAR(t.frames[2].etime - t.frames[2].stime, 5, 0);
	ASSERT_EQ_INT(t.frames[4].depth, 0);
	fg_tree_release(&t);
}

TEST(tree_prunes_narrow_frames)
{
	struct fg_row rows[] = { { "a", 1, 1000, 0 }, { "b", 1, 1, 0 } };
	struct fg_opts o;
	struct fg_tree t;

	fg_opts_init(&o);
	o.minwidth = 5; /* pixels: b is 1.18 */
	ASSERT_EQ_INT(fg_tree_build(&t, rows, 2, 0, &o), 0);
	ASSERT_EQ_INT(t.n, 2);
	fg_tree_release(&t);
}

static char *render(struct fg_row *rows, size_t n, const struct fg_opts *o, int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	*err = flamegraph_write_rows(rows, n, 0, o, out, NULL);
	fclose(out);
	return buf;
}

TEST(reverse_merges_leaf_first)
{
	struct fg_row rows[] = { { "a;x", 3, 1, 0 }, { "b;x", 3, 1, 0 } };
	struct fg_opts o;
	int err;
	char *svg;

	fg_opts_init(&o);
	o.reverse = 1;
	svg = render(rows, 2, &o, &err);
	ASSERT_EQ_INT(err, 0);
	ASSERT_TRUE(strstr(svg, "<title>x (2 samples, 100.00%)</title>"));
	free(svg);
}

TEST(empty_profile_is_an_error_svg)
{
	struct fg_opts o;
	int err;
	char *svg;

	fg_opts_init(&o);
	svg = render(NULL, 0, &o, &err);
	ASSERT_EQ_INT(err, -ENODATA);
	ASSERT_TRUE(strstr(svg, "ERROR: No valid input"));
	free(svg);
}

TEST(folded_entry_point)
{
	struct folded *after = folded_new();
	struct fg_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	fg_opts_init(&o);
	folded_add(after, "a;b", 3, 20);
	folded_add(after, "a;c", 3, 5);
	ASSERT_EQ_INT(flamegraph_write(after, &o, out), 0);
	fclose(out);
	ASSERT_TRUE(strstr(buf, "<title>b (20 samples, 80.00%)</title>"));
	free(buf);
	folded_free(after);
}

TEST(kind_options)
{
	struct fg_opts o;

	fg_opts_init(&o);
	ASSERT_EQ_INT(fg_opts_for_kind(&o, "offcpu"), 0);
	ASSERT_EQ_STR(o.countname, "us");
	ASSERT_EQ_INT(o.palette, PAL_IO);
	ASSERT_EQ_INT(fg_opts_for_kind(&o, "live"), 0);
	ASSERT_EQ_INT(o.palette, PAL_MEM);
	ASSERT_EQ_INT(fg_opts_for_kind(&o, "nope"), -EINVAL);
}

TEST(script_fits_in_cdata)
{
	ASSERT_TRUE(strlen(fg_script) > 1000);
	ASSERT_TRUE(!strstr(fg_script, "]]>"));
}

static char *diff_of(const struct diff_opts *o, const char *a, const char *b, uint64_t *ign)
{
	struct diff *d = diff_new(o);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	*ign = 0;
	if (!d || diff_add_text(d, 0, a, strlen(a), ign) ||
	    diff_add_text(d, 1, b, strlen(b), ign) || diff_write(d, out))
		buf = NULL;
	fclose(out);
	diff_free(d);
	return buf;
}

TEST(diff_side_by_side)
{
	struct diff_opts o = { 0, 0 };
	uint64_t ign;
	char *s = diff_of(&o, "a;b 10\na;c 5\nbad\na;b 1\n", "a;d 2\na;b 3 4\r\n", &ign);

	ASSERT_EQ_STR(s, "a;b 11 4\na;c 5 0\na;d 0 2\n");
	ASSERT_EQ_INT(ign, 1);
	free(s);
}

TEST(diff_normalizes_and_strips_hex)
{
	struct diff_opts o = { 1, 1 };
	uint64_t ign;
	char *s = diff_of(&o, "a;0x1f;b0xz 3\na;0xABC;b0xz 4\nc 3\n", "c 20\na;0xdd;b0xz 0.5\n",
			  &ign);

	/* totals 10 and 20.5: int(7 * 20.5 / 10) = 14 */
	ASSERT_EQ_STR(s, "a;0x...;b0xz 14 0.5\nc 6 20\n");
	free(s);
}

/* Attributes repeated between the fields and g_extra, or with a namespace prefix, are dropped. */
TEST(nameattr_never_repeats_or_prefixes_attributes)
{
	struct sbuf sb = SBUF_INIT;
	struct fg_attr_out out;

	ASSERT_EQ_INT(
		fg_attr_open(
			&sb,
			"id=a\tclass=k\tg_extra=id=\"b\" class=c foo:bar=1 x=1 x=2 data-y=\"2\"",
			&out),
		0);
	ASSERT_EQ_STR(sb.buf, "<g id=\"a\" class=\"k\" x=\"1\" data-y=\"2\">");
	fg_attr_release(&out);
	sbuf_release(&sb);
}
