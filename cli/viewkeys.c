/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewkeys.c - the screen's life: start curses, read keys and the mouse, act on them, redraw;
 * search; refresh a live view at every drain. The terminal is given back on every way out: q,
 * Ctrl-C (read as a key, in raw mode), SIGTERM/SIGHUP (a flag the loop sees within its
 * timeout), and fatal signals (endwin, then the default action).
 */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/view.h"
#include "lib/sbuf.h"

#define TICK_MS 200
#define MOUSE_MOTION_ON "\033[?1003h" /* xterm any-event tracking: hover; curses has no call */
#define MOUSE_MOTION_OFF "\033[?1003l"

static volatile sig_atomic_t stop_signal;
static int screen_on;

double view_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void screen_off(void)
{
	if (!screen_on)
		return;
	screen_on = 0;
	printf(MOUSE_MOTION_OFF);
	fflush(stdout);
	endwin();
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_fatal(int sig)
{
	screen_off();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop; /* no SA_RESTART: getch returns and the loop sees the flag */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_fatal;
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
}

static void screen_start(struct view *v)
{
	initscr();
	screen_on = 1;
	atexit(screen_off);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(TICK_MS);
	mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
	mouseinterval(0);
	printf(MOUSE_MOTION_ON);
	fflush(stdout);
	view_draw_init(v);
}

static int in_subtree(const struct view_tree *t, uint32_t root, uint32_t i)
{
	return i >= root && i < t->nodes[root].end;
}

int view_search(struct view *v)
{
	const struct view_tree *t = &v->tree;
	unsigned char *m;
	char name[1024];

	free(v->match);
	v->match = NULL;
	v->matched = 0;
	if (!v->have_re)
		return 0;
	m = calloc(t->n ? t->n : 1, 1);
	if (!m)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->n; i++) {
		size_t len =
			t->nodes[i].len < sizeof(name) - 1 ? t->nodes[i].len : sizeof(name) - 1;

		/* a name's parent often has the same name (recursion): no shortcut there */
		memcpy(name, t->nodes[i].name, len);
		name[len] = '\0';
		m[i] = !regexec(&v->re, name, 0, NULL, 0);
	}
	/* nested matches count once: the outermost matched frame covers its subtree */
	for (uint32_t i = 1; i < t->n;) {
		if (m[i]) {
			v->matched += t->nodes[i].total;
			i = t->nodes[i].end;
		} else {
			i++;
		}
	}
	v->match = m;
	return 0;
}

int view_load_tree(struct view *v)
{
	struct view_source *s = &v->src[v->cur];
	int err;

	view_tree_release(&v->tree);
	err = view_tree_build(&v->tree, s->after, s->before);
	if (err)
		return err;
	v->zoom = v->sel = 0;
	v->hover = VIEW_NONE;
	v->scroll = 0;
	free(v->color);
	v->color = malloc((size_t)v->tree.n * sizeof(*v->color)); /* NULL: computed each time */
	if (v->color)
		memset(v->color, 0xff, (size_t)v->tree.n * sizeof(*v->color));
	return view_search(v);
}

/* Select i and make it visible: zoom out to the root if it lies outside the zoomed frame. */
static void select_node(struct view *v, uint32_t i)
{
	uint32_t a;

	if (i == VIEW_NONE)
		return;
	if (!in_subtree(&v->tree, v->zoom, i)) {
		for (a = v->zoom; a != VIEW_NONE && a != i; a = v->tree.nodes[a].parent)
			;
		if (a == VIEW_NONE) /* not an ancestor of the zoom either */
			v->zoom = 0;
	}
	v->sel = i;
	view_scroll_to_sel(v);
}

/* The frame beside the selection on its row, drawn; dir -1 left, +1 right. */
static uint32_t beside(const struct view *v, int dir)
{
	const struct view_rect *s = view_rect_of(v, v->sel), *best = NULL;

	if (!s)
		return VIEW_NONE;
	for (size_t i = 0; i < v->nrects; i++) {
		const struct view_rect *r = &v->rects[i];

		if (r->row != s->row || (dir < 0 ? r->x >= s->x : r->x <= s->x))
			continue;
		if (!best || (dir < 0 ? r->x > best->x : r->x < best->x))
			best = r;
	}
	return best ? best->node : VIEW_NONE;
}

/* Up or down on screen: toward the leaves or the root, by orientation. */
static void move_vertical(struct view *v, int up)
{
	uint32_t i = v->sel;

	if (up != v->inverted)
		i = view_tree_heaviest_child(&v->tree, i);
	else
		i = v->tree.nodes[i].parent;
	select_node(v, i);
}

static void next_match(struct view *v, int dir)
{
	const struct view_tree *t = &v->tree;
	uint32_t i = v->sel;

	if (!v->match)
		return;
	for (uint32_t k = 0; k < t->n; k++) {
		i = dir > 0 ? (i + 1) % t->n : (i + t->n - 1) % t->n;
		if (v->match[i]) {
			select_node(v, i);
			if (!view_rect_of(v, i) && t->nodes[i].parent != VIEW_NONE)
				v->zoom = t->nodes[i].parent;
			return;
		}
	}
}

static void zoom_to(struct view *v, uint32_t i)
{
	if (i == VIEW_NONE || v->tree.nodes[i].total <= 0)
		return;
	v->zoom = v->sel = i;
	view_scroll_to_sel(v);
}

static void zoom_out(struct view *v)
{
	if (v->tree.nodes[v->zoom].parent != VIEW_NONE)
		zoom_to(v, v->tree.nodes[v->zoom].parent);
}

static void reset(struct view *v)
{
	if (v->have_re)
		regfree(&v->re);
	v->have_re = 0;
	v->pattern[0] = '\0';
	view_search(v);
	v->zoom = v->sel = 0;
	v->scroll = 0;
}

/* Read a line on the last row: Enter takes it, Esc cancels. Returns 1 with a pattern. */
static int prompt(struct view *v, char *buf, size_t size)
{
	size_t len = 0;
	int ch;

	buf[0] = '\0';
	curs_set(1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		addstr("/");
		addnstr(buf, COLS - 2);
		refresh();
		ch = getch();
		if (stop_signal || ch == 27 || ch == 3)
			break;
		if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
			curs_set(0);
			return 1;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len)
			buf[--len] = '\0';
		else if (ch >= 0x20 && ch < 0x7f && len + 1 < size)
			buf[len++] = (char)ch, buf[len] = '\0';
	}
	curs_set(0);
	return 0;
}

static void search_key(struct view *v)
{
	char pat[sizeof(v->pattern)];
	regex_t re;

	if (!prompt(v, pat, sizeof(pat)))
		return;
	if (v->have_re)
		regfree(&v->re);
	v->have_re = 0;
	if (pat[0] && regcomp(&re, pat, REG_EXTENDED | REG_NOSUB)) {
		snprintf(v->msg, sizeof(v->msg), "invalid regular expression");
	} else if (pat[0]) {
		v->re = re;
		v->have_re = 1;
		snprintf(v->pattern, sizeof(v->pattern), "%s", pat);
	}
	if (view_search(v))
		snprintf(v->msg, sizeof(v->msg), "out of memory for the search");
}

static void mouse_event(struct view *v)
{
	MEVENT ev;
	uint32_t i;

	if (getmouse(&ev) != OK)
		return;
	i = view_frame_at(v, ev.y, ev.x);
	if (ev.bstate & BUTTON4_PRESSED) {
		v->scroll += v->inverted ? -1 : 1;
	} else if (ev.bstate & BUTTON5_PRESSED) {
		v->scroll -= v->inverted ? -1 : 1;
	} else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) {
		zoom_to(v, i);
	} else {
		v->hover = i;
		return;
	}
	if (v->scroll < 0)
		v->scroll = 0;
	if (v->scroll > (int)v->tree.maxdepth)
		v->scroll = (int)v->tree.maxdepth;
}

static int switch_source(struct view *v, int dir)
{
	if (v->nsrc < 2 && !v->live.run_dir)
		return 0;
	v->cur = (v->cur + v->nsrc + dir) % v->nsrc;
	if (v->live.run_dir)
		v->live.next_fetch = 0; /* a live kind is fetched at once */
	return view_load_tree(v);
}

/* Act on a key. Returns 1 to quit, 0 to go on, -errno on failure. */
static int on_key(struct view *v, int ch)
{
	v->msg[0] = '\0';
	if (v->help && ch != KEY_MOUSE && ch != KEY_RESIZE) {
		v->help = 0;
		return 0;
	}
	switch (ch) {
	case 'q':
	case 3: /* Ctrl-C in raw mode */
		return 1;
	case KEY_UP:
	case 'k':
		move_vertical(v, 1);
		break;
	case KEY_DOWN:
	case 'j':
		move_vertical(v, 0);
		break;
	case KEY_LEFT:
	case 'h':
		select_node(v, beside(v, -1));
		break;
	case KEY_RIGHT:
	case 'l':
		select_node(v, beside(v, 1));
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
		zoom_to(v, v->sel);
		break;
	case 27:
	case KEY_BACKSPACE:
	case 127:
	case 8:
		zoom_out(v);
		break;
	case 'r':
		reset(v);
		break;
	case '/':
		search_key(v);
		break;
	case 'n':
		next_match(v, 1);
		break;
	case 'N':
		next_match(v, -1);
		break;
	case 'i':
		v->inverted = !v->inverted;
		break;
	case '\t':
		return switch_source(v, 1);
	case KEY_BTAB:
		return switch_source(v, -1);
	case KEY_PPAGE:
		v->scroll += v->rows / 2;
		if (v->scroll > (int)v->tree.maxdepth)
			v->scroll = (int)v->tree.maxdepth;
		break;
	case KEY_NPAGE:
		v->scroll = v->scroll > v->rows / 2 ? v->scroll - v->rows / 2 : 0;
		break;
	case '?':
		v->help = 1;
		break;
	case KEY_MOUSE:
		mouse_event(v);
		break;
	}
	return 0;
}

/* The frames from the root to i, as a folded stack. Returns 0 or -ENOMEM. */
static int path_of(const struct view_tree *t, uint32_t i, struct sbuf *out)
{
	size_t at;

	sbuf_setlen(out, 0);
	for (; i != VIEW_NONE && i != 0; i = t->nodes[i].parent) {
		at = out->len;
		if (sbuf_grow(out, t->nodes[i].len + 1))
			return -ENOMEM;
		memmove(out->buf + t->nodes[i].len + 1, out->buf, at);
		memcpy(out->buf, t->nodes[i].name, t->nodes[i].len);
		out->buf[t->nodes[i].len] = ';';
		out->len = at + t->nodes[i].len + 1;
		out->buf[out->len] = '\0';
	}
	return 0;
}

/* The frame at a path in the current tree, as deep as it goes. */
static uint32_t find_path(const struct view_tree *t, const char *path, size_t len)
{
	const char *q = path, *end = path + len;
	uint32_t at = 0, c;

	while (q < end) {
		const char *semi = memchr(q, ';', (size_t)(end - q));
		size_t n = (size_t)((semi ? semi : end) - q);

		for (c = at + 1; c < t->nodes[at].end; c = t->nodes[c].end)
			if (t->nodes[c].len == n && !memcmp(t->nodes[c].name, q, n))
				break;
		if (c >= t->nodes[at].end)
			break;
		at = c;
		q += n + 1;
	}
	return at;
}

/* A live view fetches its kind again after each drain of the daemon; the zoom stays. */
static int live_tick(struct view *v)
{
	struct sbuf zoom = SBUF_INIT;
	int err;

	if (!v->live.run_dir || view_now() < v->live.next_fetch)
		return 0;
	v->live.next_fetch = view_live_next(v);
	err = path_of(&v->tree, v->zoom, &zoom);
	err = err ?: view_live_fetch(v, &v->src[v->cur]);
	if (err) {
		sbuf_release(&zoom);
		return err == -ENOMEM ? err : 0; /* the status says why; tried again next drain */
	}
	err = view_load_tree(v);
	if (!err && zoom.len)
		v->zoom = v->sel = find_path(&v->tree, zoom.buf, zoom.len - 1);
	sbuf_release(&zoom);
	return err;
}

static int loop(struct view *v)
{
	double t0;
	int ch, rc = 0;

	while (!stop_signal && rc == 0) {
		ch = getch();
		if (ch == ERR) {
			rc = live_tick(v);
			if (rc == 0 && v->live.run_dir)
				rc = view_draw(v);
			continue;
		}
		t0 = view_now();
		rc = on_key(v, ch);
		if (rc == 0)
			rc = view_draw(v);
		if (v->timing && ch != KEY_MOUSE) {
			fprintf(v->timing, "redraw %d %.3f ms\n", ch, 1000 * (view_now() - t0));
			fflush(v->timing);
		}
	}
	return rc < 0 ? rc : 0;
}

int view_run(struct view *v)
{
	int err;

	catch_signals();
	screen_start(v);
	err = view_draw(v);
	if (v->timing) {
		fprintf(v->timing, "first-screen %.3f ms\n", 1000 * (view_now() - v->started));
		fflush(v->timing);
	}
	err = err ?: loop(v);
	screen_off();
	return err;
}
