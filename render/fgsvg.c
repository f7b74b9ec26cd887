/* SPDX-License-Identifier: BSD-2-Clause */
/* fgsvg.c - write a flame graph's frames as an interactive SVG */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"
#include "render/fgattr.h"
#include "render/fgnum.h"
#include "render/fgsvg.h"
#include "render/xmlesc.h"

#define FLUSH_AT (16 * 1024)
#define FRAMEPAD 1

struct svg {
	struct sbuf sb;
	FILE *out;
	int err;
	const struct fg_opts *o;
	int fluid, differential;
	double width, height; /* pixels (nominal for a fluid graph) */
	double ypad1, ypad2, ypad3, wpt, timemax, maxdelta;
};

/* Inline everywhere: a literal's memcpy becomes a few moves. */
static inline __attribute__((always_inline)) void put(struct svg *s, const char *str, size_t len)
{
	if (!s->err && sbuf_add(&s->sb, str, len))
		s->err = -ENOMEM;
}

#define PUTS(s, lit) put(s, lit, sizeof(lit) - 1)

static void puts_(struct svg *s, const char *str)
{
	put(s, str, strlen(str));
}

static void esc(struct svg *s, const char *str, size_t len)
{
	if (!s->err && xml_escape(&s->sb, str, len))
		s->err = -ENOMEM;
}

static void escs(struct svg *s, const char *str)
{
	esc(s, str, strlen(str));
}

static void num(struct svg *s, double x)
{
	char b[FGNUM_MAX];

	put(s, b, fgnum_perl(b, x));
}

static void fixed(struct svg *s, double x, int decimals)
{
	char b[FGNUM_MAX];

	put(s, b, fgnum_fixed(b, x, decimals));
}

static void flush(struct svg *s)
{
	if (!s->err && s->sb.len && fwrite(s->sb.buf, 1, s->sb.len, s->out) != s->sb.len)
		s->err = -EIO;
	sbuf_setlen(&s->sb, 0);
}

/* An x coordinate: pixels, or for a fluid graph percent of the width. */
static void xcoord(struct svg *s, double px)
{
	if (s->fluid) {
		fixed(s, 100 * px / s->width, 4);
		PUTS(s, "%");
	} else {
		fixed(s, px, 2);
	}
}

/* "--" would end an XML comment early: keep dashes apart. */
static void comment(struct svg *s, const char *text)
{
	struct sbuf tmp = SBUF_INIT;

	if (xml_escape(&tmp, text, strlen(text))) {
		s->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < tmp.len; i++) {
		put(s, tmp.buf + i, 1);
		if (tmp.buf[i] == '-' && (i + 1 == tmp.len || tmp.buf[i + 1] == '-'))
			PUTS(s, " ");
	}
	sbuf_release(&tmp);
}

/* A font family list: letters, digits, spaces, commas, dashes and underscores only. */
static void font(struct svg *s, const char *f)
{
	for (; *f; f++)
		if ((*f >= 'a' && *f <= 'z') || (*f >= 'A' && *f <= 'Z') ||
		    (*f >= '0' && *f <= '9') || strchr(" ,-_", *f))
			put(s, f, 1);
}

/*
 * The XML prolog and the <svg> element. A fluid graph is 100% wide and has no viewBox, so it
 * stretches with the page; the notes go into a comment.
 */
static void header(struct svg *s)
{
	const struct fg_opts *o = s->o;

	PUTS(s, "<?xml version=\"1.0\"");
	if (o->encoding) {
		PUTS(s, " encoding=\"");
		escs(s, o->encoding);
		PUTS(s, "\"");
	}
	PUTS(s,
	     " standalone=\"no\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	     "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg version=\"1.1\" width=\"");
	if (s->fluid)
		PUTS(s, "100%");
	else
		num(s, s->width);
	PUTS(s, "\" height=\"");
	num(s, s->height);
	if (!s->fluid) {
		PUTS(s, "\" viewBox=\"0 0 ");
		num(s, s->width);
		PUTS(s, " ");
		num(s, s->height);
	}
	PUTS(s,
	     "\" onload=\"fg_init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" "
	     "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	     "<!-- Flame graph drawn by ember: hover for details, click to zoom, Ctrl-F to search. -->\n"
	     "<!-- NOTES: ");
	comment(s, o->notes ? o->notes : "");
	PUTS(s, " -->\n");
}

/*
 * The background gradient, the CSS and the script. A background that does not parse falls back to
 * the palette's own.
 */
static void style(struct svg *s)
{
	const struct fg_opts *o = s->o;
	char c1[8], c2[8];

	if (palette_background(o->bgcolors, o->palette, c1, c2))
		palette_background(NULL, o->palette, c1, c2);
	PUTS(s, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"");
	puts_(s, c1);
	PUTS(s, "\" offset=\"5%\"/><stop stop-color=\"");
	puts_(s, c2);
	PUTS(s, "\" offset=\"95%\"/></linearGradient></defs>\n<style type=\"text/css\">\n"
		"text { font-family:");
	font(s, o->fonttype);
	PUTS(s, "; font-size:");
	num(s, o->fontsize);
	PUTS(s,
	     "px; fill:rgb(0,0,0); }\n"
	     "#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
	     "#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity:1; }\n"
	     "#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n#title { text-anchor:middle; "
	     "font-size:");
	num(s, o->fontsize + 5);
	PUTS(s, "px; }\n#unzoom { cursor:pointer; }\n"
		"#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
		".hide { display:none; }\n.parent { opacity:0.5; }\n</style>\n"
		"<script type=\"text/ecmascript\"><![CDATA[\n");
	puts_(s, fg_script);
	PUTS(s, "]]></script>\n");
}

static void text(struct svg *s, const char *id, double x, double y, const char *str,
		 const char *extra)
{
	PUTS(s, "<text id=\"");
	puts_(s, id);
	PUTS(s, "\" x=\"");
	if (s->fluid) {
		fixed(s, 100 * x / s->width, 2);
		PUTS(s, "%");
	} else {
		num(s, x);
	}
	PUTS(s, "\" y=\"");
	num(s, y);
	PUTS(s, "\"");
	if (extra)
		puts_(s, extra);
	PUTS(s, ">");
	escs(s, str);
	PUTS(s, "</text>\n");
}

static const char *title_text(const struct fg_opts *o)
{
	if (o->title && *o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

static void controls(struct svg *s)
{
	const struct fg_opts *o = s->o;
	double w = s->width, bottom = s->height - s->ypad2 / 2;

	PUTS(s, "<rect x=\"0\" y=\"0\" width=\"");
	if (s->fluid)
		PUTS(s, "100%");
	else
		num(s, w);
	PUTS(s, "\" height=\"");
	num(s, s->height);
	PUTS(s, "\" fill=\"url(#background)\"/>\n");
	text(s, "title", (int)(w / 2), o->fontsize * 2, title_text(o), NULL);
	if (o->subtitle && *o->subtitle)
		text(s, "subtitle", (int)(w / 2), o->fontsize * 4, o->subtitle, NULL);
	text(s, "details", FG_XPAD, bottom, " ", NULL);
	text(s, "unzoom", FG_XPAD, o->fontsize * 2, "Reset Zoom", " class=\"hide\"");
	text(s, "search", w - FG_XPAD - 100, o->fontsize * 2, "Search", NULL);
	text(s, "ignorecase", w - FG_XPAD - 16, o->fontsize * 2, "ic", NULL);
	text(s, "matched", w - FG_XPAD - 100, bottom, " ", NULL);
}

/* What the script needs to know, as attributes of the frames group. */
static void frames_open(struct svg *s)
{
	const struct fg_opts *o = s->o;

	PUTS(s, "<g id=\"frames\" fg-xpad=\"");
	num(s, s->fluid ? 100.0 * FG_XPAD / s->width : FG_XPAD);
	PUTS(s, "\" fg-full=\"");
	num(s, s->fluid ? 100 - 200.0 * FG_XPAD / s->width : s->width - 2 * FG_XPAD);
	PUTS(s, "\" fg-unit=\"");
	puts_(s, s->fluid ? "%" : "");
	PUTS(s, "\" fg-fontsize=\"");
	num(s, o->fontsize);
	PUTS(s, "\" fg-fontwidth=\"");
	num(s, o->fontwidth);
	PUTS(s, "\" fg-inverted=\"");
	puts_(s, o->inverted ? "1" : "0");
	PUTS(s, "\" fg-nametype=\"");
	escs(s, o->nametype);
	PUTS(s, "\" fg-searchcolor=\"");
	escs(s, o->search_color);
	PUTS(s, "\">\n");
}

static int annotated(const char *name, size_t len, const char *kinds)
{
	return len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' && name[len - 1] == ']' &&
	       name[len - 2] && strchr(kinds, name[len - 2]);
}

/* Without its annotation: _[k] _[w] _[i] _[j], and _[o] (off-CPU) before or alone. */
static size_t strip_annotation(const char *name, size_t len)
{
	if (annotated(name, len, "o"))
		len -= 4;
	if (annotated(name, len, "kwij"))
		len -= 4;
	return len;
}

/*
 * A frame's tooltip "name (N samples, P%)", with its change as a share of the total on a
 * differential graph; the root reads "all" at 100%. The percentage is of the count rounded to an
 * integer, as flamegraph.pl prints it.
 */
static void info(struct svg *s, const struct fg_frame *fr, double width)
{
	const struct fg_opts *o = s->o;
	char b[FGNUM_MAX];
	double samples, total = s->timemax * o->factor;

	samples = fgnum_rounded(width * o->factor, 0);
	if (fr->depth == 0)
		PUTS(s, "all");
	else
		esc(s, fr->name, strip_annotation(fr->name, fr->len));
	PUTS(s, " (");
	put(s, b, fgnum_commas(b, width * o->factor));
	PUTS(s, " ");
	escs(s, o->countname);
	if (fr->depth == 0) {
		PUTS(s, ", 100%)");
		return;
	}
	PUTS(s, ", ");
	fixed(s, 100 * samples / total, 2);
	if (s->differential) {
		double d = o->negate ? -fr->delta : fr->delta;

		if (d == 0) /* not "-0.00" */
			d = 0;

		PUTS(s, "%; ");
		if (d > 0)
			PUTS(s, "+");
		fixed(s, 100 * d / total, 2);
	}
	PUTS(s, "%)");
}

/* "rgb(r,g,b)" without printf: one per frame. */
static void rgb_text(char *b, struct rgb c)
{
	const unsigned char v[3] = { c.r, c.g, c.b };
	size_t n = 4;

	memcpy(b, "rgb(", 4);
	for (int i = 0; i < 3; i++) {
		if (v[i] >= 100)
			b[n++] = (char)('0' + v[i] / 100);
		if (v[i] >= 10)
			b[n++] = (char)('0' + v[i] / 10 % 10);
		b[n++] = (char)('0' + v[i] % 10);
		b[n++] = i < 2 ? ',' : ')';
	}
	b[n] = '\0';
}

/*
 * A frame's fill: fixed greys for the "--" and "-" separator frames, else the --cp map's colour for
 * the name if it holds a valid one, else the palette's (the red/blue scale on a differential
 * graph). A new colour is added to the map so that later graphs reuse it.
 */
static void color(struct svg *s, const struct fg_frame *fr)
{
	const struct fg_opts *o = s->o;
	const char *mapped = NULL;
	struct rgb c;
	char b[32];

	if (fr->len == 2 && !memcmp(fr->name, "--", 2)) {
		PUTS(s, "rgb(160,160,160)");
		return;
	}
	if (fr->len == 1 && fr->name[0] == '-') {
		PUTS(s, "rgb(200,200,200)");
		return;
	}
	if (!s->differential && o->palette_map) {
		mapped = namemap_get(o->palette_map, fr->name, fr->len);
		if (mapped && palette_valid_color(mapped)) {
			puts_(s, mapped);
			return;
		}
	}
	if (s->differential)
		c = palette_diff(fr->delta, s->maxdelta, o->negate);
	else
		c = palette_color(o->palette, o->color_mode, fr->name, fr->len, fr->waker);
	rgb_text(b, c);
	puts_(s, b);
	if (!s->differential && o->palette_map && namemap_set(o->palette_map, fr->name, fr->len, b))
		s->err = -ENOMEM;
}

/* The label: as many characters as fit, the last two replaced by ".." if cut. */
static void label(struct svg *s, const struct fg_frame *fr, double pxwidth)
{
	const struct fg_opts *o = s->o;
	size_t chars = (size_t)(pxwidth / (o->fontsize * o->fontwidth));
	const char *name = fr->depth ? fr->name : "all";
	size_t len = fr->depth ? strip_annotation(fr->name, fr->len) : 3;

	if (pxwidth / (o->fontsize * o->fontwidth) < 3)
		return;
	if (utf8_count(name, len) <= chars) {
		esc(s, name, len);
		return;
	}
	esc(s, name, utf8_prefix(name, len, chars - 2));
	PUTS(s, "..");
}

static void rect_x(struct svg *s, double x1)
{
	if (s->fluid)
		xcoord(s, x1);
	else
		fixed(s, x1, 1);
}

static void rect_w(struct svg *s, double x1, double x2)
{
	if (s->fluid) {
		fixed(s, 100 * (x2 - x1) / s->width, 4);
		PUTS(s, "%");
		return;
	}
	/* flamegraph.pl: the width between the x coordinates as printed */
	fixed(s, fgnum_rounded(x2, 1) - fgnum_rounded(x1, 1), 1);
}

/*
 * One frame: a group with its tooltip, rectangle and, when three characters fit, a label. Depth
 * counts up from the bottom, or down from the top when inverted. Attributes from --nameattr for the
 * name replace the plain <g> (and its title, if they give one).
 */
static void frame(struct svg *s, const struct fg_frame *fr)
{
	const struct fg_opts *o = s->o;
	double etime = fr->depth == 0 ? s->timemax : fr->etime;
	double x1 = FG_XPAD + fr->stime * s->wpt, x2 = FG_XPAD + etime * s->wpt, y1, y2;
	const char *attrs = o->nameattr ? namemap_get(o->nameattr, fr->name, fr->len) : NULL;
	struct fg_attr_out close = { 0 };

	if (o->inverted) {
		y1 = s->ypad1 + s->ypad3 + fr->depth * o->frameheight;
		y2 = y1 + o->frameheight - FRAMEPAD;
	} else {
		y1 = s->height - s->ypad2 - (fr->depth + 1.0) * o->frameheight + FRAMEPAD;
		y2 = s->height - s->ypad2 - (double)fr->depth * o->frameheight;
	}
	if (attrs)
		s->err = s->err ?: fg_attr_open(&s->sb, attrs, &close);
	else
		PUTS(s, "<g>");
	PUTS(s, "<title>");
	if (close.title)
		escs(s, close.title);
	else
		info(s, fr, etime - fr->stime);
	PUTS(s, "</title><rect x=\"");
	rect_x(s, x1);
	PUTS(s, "\" y=\"");
	num(s, y1);
	PUTS(s, "\" width=\"");
	rect_w(s, x1, x2);
	PUTS(s, "\" height=\"");
	fixed(s, y2 - y1, 1);
	PUTS(s, "\" fill=\"");
	color(s, fr);
	PUTS(s, "\" rx=\"2\" ry=\"2\"/>");
	if ((x2 - x1) / (o->fontsize * o->fontwidth) >= 3) {
		PUTS(s, "<text x=\"");
		if (s->fluid) {
			xcoord(s, x1);
			PUTS(s, "\" dx=\"3");
		} else {
			fixed(s, x1 + 3, 2);
		}
		PUTS(s, "\" y=\"");
		num(s, 3 + (y1 + y2) / 2);
		PUTS(s, "\">");
		label(s, fr, x2 - x1);
		PUTS(s, "</text>");
	}
	puts_(s, close.tag ? close.tag : "</g>");
	PUTS(s, "\n");
	fg_attr_release(&close);
}

static void geometry(struct svg *s, const struct fg_opts *o, uint32_t depthmax)
{
	s->o = o;
	s->fluid = o->width <= 0;
	s->width = fg_layout_width(o);
	s->ypad1 = o->fontsize * 3;
	s->ypad2 = o->fontsize * 2 + 10;
	s->ypad3 = o->subtitle && *o->subtitle ? o->fontsize * 2 : 0;
	s->height = (depthmax + 1.0) * o->frameheight + s->ypad1 + s->ypad2 + s->ypad3;
}

int fg_svg_write(const struct fg_tree *t, int differential, const struct fg_opts *o, FILE *out)
{
	struct svg s = { .sb = SBUF_INIT, .out = out, .differential = differential };

	geometry(&s, o, t->depthmax);
	s.timemax = t->timemax;
	s.maxdelta = t->maxdelta;
	s.wpt = (s.width - 2 * FG_XPAD) / t->timemax;
	header(&s);
	style(&s);
	controls(&s);
	frames_open(&s);
	for (size_t i = 0; i < t->n && !s.err; i++) {
		frame(&s, &t->frames[i]);
		if (s.sb.len >= FLUSH_AT)
			flush(&s);
	}
	PUTS(&s, "</g>\n</svg>\n");
	flush(&s);
	sbuf_release(&s.sb);
	return s.err;
}

int fg_svg_write_empty(const struct fg_opts *o, FILE *out)
{
	struct svg s = { .sb = SBUF_INIT, .out = out };

	geometry(&s, o, 0);
	s.height = o->fontsize * 5;
	header(&s);
	text(&s, "title", (int)(s.width / 2), o->fontsize * 2,
	     "ERROR: No valid input provided to flamegraph.", " text-anchor=\"middle\"");
	PUTS(&s, "</svg>\n");
	flush(&s);
	sbuf_release(&s.sb);
	return s.err;
}
