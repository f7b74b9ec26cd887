/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewdraw.c - the screen of `ember view`: a title line, the graph, a status line for the
 * selected (or hovered) frame, a line for keys and messages. Only what shows is laid out:
 * frames at least one column wide at the current zoom, in the rows that fit, so a redraw
 * costs the frames on screen and their direct children, not the profile.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/view.h"

#define SEARCH_RGB ((struct rgb){ 230, 0, 230 })
#define NAME_MAX_CELLS 512

static const char *const help_lines[] = {
	"arrows, hjkl   move: parent, child, left, right",
	"Enter, click   zoom into the frame",
	"Esc, Backspace zoom out",
	"r              reset zoom and search",
	"/              search (regular expression)",
	"n, N           next, previous match",
	"Tab, S-Tab     next, previous sample type or kind",
	"i              flame or icicle",
	"PgUp, PgDn     scroll deep stacks (or the wheel)",
	"?              this help",
	"q, Ctrl-C      quit",
};

void view_draw_init(struct view *v)
{
	const char *nc = getenv("NO_COLOR");

	v->colors = VIEW_MONO;
	if ((nc && *nc) || !has_colors())
		return;
	start_color();
	use_default_colors();
	if (COLORS >= 0x1000000)
		v->colors = VIEW_COLORS_DIRECT;
	else if (COLORS >= 256)
		v->colors = VIEW_COLORS_256;
	else if (COLORS >= 8)
		v->colors = VIEW_COLORS_8;
}

static int cube(unsigned char c)
{
	return c < 48 ? 0 : c < 115 ? 1 : (c - 35) / 40;
}

static int color_index(const struct view *v, struct rgb c)
{
	switch (v->colors) {
	case VIEW_COLORS_DIRECT:
		return (c.r << 16) | (c.g << 8) | c.b;
	case VIEW_COLORS_256:
		return 16 + 36 * cube(c.r) + 6 * cube(c.g) + cube(c.b);
	default:
		if (c.b > c.r && c.b > c.g)
			return COLOR_BLUE;
		if (c.g > c.r)
			return COLOR_GREEN;
		if (c.r > 180 && c.g > 140)
			return COLOR_YELLOW;
		return c.r > 200 && c.b > 200 ? COLOR_MAGENTA : COLOR_RED;
	}
}

/* A frame's colour, computed once per tree: the palette hashes the name. */
static int node_color(const struct view *v, uint32_t i)
{
	const struct view_node *n = &v->tree.nodes[i];
	struct rgb c;

	if (v->match && v->match[i])
		return color_index(v, SEARCH_RGB);
	if (v->color && v->color[i] >= 0)
		return v->color[i];
	if (v->tree.diff)
		c = palette_diff(n->total - n->before, v->tree.maxdelta, v->negate);
	else
		c = palette_color(v->palette, COLOR_BY_NAME, n->name, n->len, 0);
	if (v->color)
		v->color[i] = color_index(v, c);
	return color_index(v, c);
}

/* Set the attributes a frame is drawn with. */
static void frame_attr(const struct view *v, uint32_t i)
{
	attr_t a = i == v->sel ? A_BOLD | A_REVERSE : A_NORMAL;
	int pair;

	if (v->colors == VIEW_MONO) {
		a = i == v->sel ? A_BOLD : A_REVERSE;
		if (v->match && v->match[i])
			a |= A_UNDERLINE;
		attr_set(a, 0, NULL);
		return;
	}
	pair = alloc_pair(v->colors == VIEW_COLORS_DIRECT ? 0 : COLOR_BLACK, node_color(v, i));
	attr_set(a, 0, pair > 0 ? &pair : NULL);
}

/*
 * Write name at (row, col), at most maxcols columns of safe characters, with ".." when cut.
 * Returns the columns written.
 */
static int put_name(const struct view *v, int row, int col, const char *name, size_t len,
		    int maxcols)
{
	wchar_t buf[NAME_MAX_CELLS + 1];
	int cw[NAME_MAX_CELLS + 1];
	const char *p = name, *end = name + len;
	int n = 0, used = 0, w;

	if (maxcols > NAME_MAX_CELLS)
		maxcols = NAME_MAX_CELLS;
	while (p < end && n < NAME_MAX_CELLS) {
		wchar_t c = view_name_char(&p, end, v->utf8, &w);

		if (!w)
			continue;
		if (used + w > maxcols)
			break;
		cw[n] = w;
		buf[n++] = c;
		used += w;
	}
	if (p < end && maxcols >= 3) { /* cut: make room for ".." */
		while (n && used > maxcols - 2)
			used -= cw[--n];
		buf[n++] = L'.';
		buf[n++] = L'.';
		used += 2;
	} else if (p < end) {
		n = used = 0;
	}
	if (n)
		mvaddnwstr(row, col, buf, n);
	return used;
}

static void draw_rect(const struct view *v, const struct view_rect *r)
{
	const struct view_node *n = &v->tree.nodes[r->node];
	int inner = r->w >= 3 ? r->w - 1 : r->w; /* a gap column between frames wide enough */
	int used;

	frame_attr(v, r->node);
	used = put_name(v, r->row, r->x, n->name, view_name_shown(n->name, n->len), inner);
	mvhline(r->row, r->x + used, ' ', inner - used);
	attr_set(A_NORMAL, 0, NULL);
}

static int push_rect(struct view *v, uint32_t node, int x, int w, int row)
{
	if (v->nrects == v->caprects) {
		size_t ncap = v->caprects ? v->caprects * 2 : 512;
		struct view_rect *nv = realloc(v->rects, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		v->rects = nv;
		v->caprects = ncap;
	}
	v->rects[v->nrects++] = (struct view_rect){ node, x, w, row };
	return 0;
}

int view_row_of(const struct view *v, uint32_t depth)
{
	int level = (int)depth - v->scroll;

	return v->inverted ? v->top + level : v->top + v->rows - 1 - level;
}

static int row_visible(const struct view *v, uint32_t depth)
{
	int level = (int)depth - v->scroll;

	return level >= 0 && level < v->rows;
}

/* The zoomed frame's descendants, in pre-order, skipping subtrees narrower than a column. */
static int layout_below(struct view *v, double *off)
{
	const struct view_node *nodes = v->tree.nodes, *z = &nodes[v->zoom];
	double scale = z->total > 0 ? v->cols / z->total : 0;
	uint32_t last_depth = (uint32_t)(v->scroll + v->rows - 1), base = z->depth;
	int err = 0;

	off[1] = 0;
	for (uint32_t i = v->zoom + 1; i < z->end && !err;) {
		const struct view_node *n = &nodes[i];
		uint32_t d = n->depth - base;
		double start = off[d];
		int x0 = (int)(start * scale), x1 = (int)((start + n->total) * scale);

		off[d] += n->total;
		if (x1 - x0 < 1 || n->depth > last_depth) {
			i = n->end;
			continue;
		}
		off[d + 1] = start;
		if (row_visible(v, n->depth))
			err = push_rect(v, i, x0, x1 - x0, view_row_of(v, n->depth));
		i++;
	}
	return err;
}

static int layout(struct view *v)
{
	double *off;
	int err = 0;

	v->nrects = 0;
	for (uint32_t a = v->zoom; a != VIEW_NONE && !err; a = v->tree.nodes[a].parent)
		if (row_visible(v, v->tree.nodes[a].depth))
			err = push_rect(v, a, 0, v->cols, view_row_of(v, v->tree.nodes[a].depth));
	if (err)
		return err;
	off = malloc((v->tree.maxdepth + 2) * sizeof(*off));
	if (!off)
		return -ENOMEM;
	err = layout_below(v, off);
	free(off);
	return err;
}

static void weight_str(char *buf, size_t size, double w, const char *unit)
{
	if (w == (double)(long long)w)
		snprintf(buf, size, "%lld %s", (long long)w, unit);
	else
		snprintf(buf, size, "%.2f %s", w, unit);
}

static void draw_status(const struct view *v, int row)
{
	uint32_t i = v->hover != VIEW_NONE ? v->hover : v->sel;
	const struct view_node *n = &v->tree.nodes[i];
	const struct view_node *p = n->parent != VIEW_NONE ? &v->tree.nodes[n->parent] : n;
	double all = v->tree.nodes[0].total;
	char w[64], self[64], line[256];
	int used;

	weight_str(w, sizeof(w), n->total, v->src[v->cur].unit);
	weight_str(self, sizeof(self), n->self, "");
	snprintf(line, sizeof(line), "  %s, %.2f%% of all, %.2f%% of parent, self %s", w,
		 all > 0 ? 100 * n->total / all : 0, p->total > 0 ? 100 * n->total / p->total : 0,
		 self);
	if (v->tree.diff)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), ", delta %+.0f",
			 n->total - n->before);
	attr_set(A_BOLD, 0, NULL);
	used = put_name(v, row, 0, n->name, n->len,
			v->cols - (int)strlen(line) > 20 ? v->cols - (int)strlen(line)
							 : v->cols / 2);
	attr_set(A_NORMAL, 0, NULL);
	mvaddnstr(row, used, line, v->cols - used > 0 ? v->cols - used : 0);
}

/*
 * Row 0: the title in bold (at most half the width), "[i/n: " with several sources, the label, "]",
 * the share matched while a search is on, and emberd's status when live.
 */
static void draw_title(const struct view *v)
{
	const struct view_source *s = &v->src[v->cur];
	char info[160];
	int used, n = 0;

	if (v->nsrc > 1)
		n += snprintf(info + n, sizeof(info) - (size_t)n, "  [%d/%d: ", v->cur + 1,
			      v->nsrc);
	else
		n += snprintf(info + n, sizeof(info) - (size_t)n, "  [");
	attr_set(A_BOLD, 0, NULL);
	used = put_name(v, 0, 0, v->title, strlen(v->title), v->cols / 2);
	attr_set(A_NORMAL, 0, NULL);
	mvaddnstr(0, used, info, v->cols - used > 0 ? v->cols - used : 0);
	used += n;
	if (used < v->cols)
		used += put_name(v, 0, used, s->label, strlen(s->label), v->cols - used - 1);
	if (v->have_re)
		snprintf(info, sizeof(info), "]  Matched: %.2f%%",
			 v->tree.nodes[0].total > 0 ? 100 * v->matched / v->tree.nodes[0].total
						    : 0);
	else
		snprintf(info, sizeof(info), "]");
	if (v->live.run_dir)
		snprintf(info + strlen(info), sizeof(info) - strlen(info), "  %s", v->live.status);
	if (used < v->cols)
		mvaddnstr(0, used, info, v->cols - used);
}

static void draw_help(const struct view *v)
{
	int n = (int)(sizeof(help_lines) / sizeof(help_lines[0])), w = 52;
	int y = (LINES - n - 2) / 2, x = (COLS - w) / 2;

	if (y < 0)
		y = 0;
	if (x < 0)
		x = 0;
	attr_set(A_REVERSE, 0, NULL);
	for (int i = -1; i <= n; i++) {
		mvhline(y + 1 + i, x, ' ', w);
		if (i >= 0 && i < n)
			mvaddnstr(y + 1 + i, x + 2, help_lines[i], w - 4);
	}
	attr_set(A_NORMAL, 0, NULL);
}

int view_draw(struct view *v)
{
	int err;

	v->cols = COLS;
	v->top = 1;
	v->rows = LINES - 3 > 1 ? LINES - 3 : 1;
	err = layout(v);
	if (err)
		return err;
	erase();
	draw_title(v);
	for (size_t i = 0; i < v->nrects; i++)
		draw_rect(v, &v->rects[i]);
	if (LINES >= 3)
		draw_status(v, LINES - 2);
	if (LINES >= 2)
		mvaddnstr(LINES - 1, 0,
			  v->msg[0] ? v->msg
				    : "? keys  / search  Enter zoom  Esc out  i icicle  q quit",
			  COLS);
	if (v->help)
		draw_help(v);
	refresh();
	return 0;
}

uint32_t view_frame_at(const struct view *v, int row, int col)
{
	for (size_t i = 0; i < v->nrects; i++) {
		const struct view_rect *r = &v->rects[i];

		if (r->row == row && col >= r->x && col < r->x + r->w)
			return r->node;
	}
	return VIEW_NONE;
}

const struct view_rect *view_rect_of(const struct view *v, uint32_t node)
{
	for (size_t i = 0; i < v->nrects; i++)
		if (v->rects[i].node == node)
			return &v->rects[i];
	return NULL;
}

void view_scroll_to_sel(struct view *v)
{
	int d = (int)v->tree.nodes[v->sel].depth;

	if (d < v->scroll)
		v->scroll = d;
	else if (d >= v->scroll + v->rows)
		v->scroll = d - v->rows + 1;
}
