/* SPDX-License-Identifier: BSD-2-Clause */
/* palette.c - frame colours: flamegraph.pl's palettes, name hashing, differential scale */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/palette.h"
#include "render/xmlesc.h"

static const char *const palette_names[PAL_MAX] = {
	"hot",  "mem", "io",    "wakeup", "chain", "java",   "js",     "perl",   "python",
	"rust", "red", "green", "blue",   "aqua",  "yellow", "purple", "orange",
};

int palette_parse(const char *name)
{
	for (int i = 0; i < PAL_MAX; i++)
		if (!strcmp(name, palette_names[i]))
			return i;
	return -1;
}

static int has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static int ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* Java names: "java/...", "Ljava/...", and the other top-level packages. */
static int java_package(const char *s, size_t len)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/",
					    "org/",  "com/",   "io/",  "sun/" };

	if (len && s[0] == 'L')
		s++, len--;
	for (size_t i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (starts(s, len, pkgs[i]))
			return 1;
	return 0;
}

/* "/" followed later by ".js", as flamegraph.pl's m:/.*\.js: */
static int js_path(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	return slash && has(slash, len - (size_t)(slash - s), ".js");
}

/* The flat palette a multi palette picks for a frame. */
static enum palette pick(enum palette p, const char *s, size_t len, int waker)
{
	switch (p) {
	case PAL_JAVA:
		if (ends(s, len, "_[j]"))
			return PAL_GREEN;
		if (ends(s, len, "_[i]"))
			return PAL_AQUA;
		if (java_package(s, len) || has(s, len, ":::"))
			return PAL_GREEN;
		if (has(s, len, "::"))
			return PAL_YELLOW;
		return ends(s, len, "_[k]") ? PAL_ORANGE : PAL_RED;
	case PAL_PERL:
		if (has(s, len, "::"))
			return PAL_YELLOW;
		if (has(s, len, "Perl") || has(s, len, ".pl"))
			return PAL_GREEN;
		return ends(s, len, "_[k]") ? PAL_ORANGE : PAL_RED;
	case PAL_JS:
		if (ends(s, len, "_[j]"))
			return memchr(s, '/', len) ? PAL_GREEN : PAL_AQUA;
		if (has(s, len, "::"))
			return PAL_YELLOW;
		if (js_path(s, len) || (len == 1 && s[0] == ' '))
			return PAL_GREEN;
		if (memchr(s, ':', len))
			return PAL_AQUA;
		return has(s, len, "_[k]") ? PAL_ORANGE : PAL_RED;
	case PAL_PYTHON:
		if (ends(s, len, "_[k]"))
			return PAL_ORANGE;
		if (has(s, len, "site-packages") || has(s, len, "/lib/python") ||
		    has(s, len, "<frozen") || has(s, len, "<built-in"))
			return PAL_AQUA;
		if (has(s, len, ".py"))
			return PAL_GREEN;
		return has(s, len, "::") ? PAL_YELLOW : PAL_RED;
	case PAL_RUST:
		if (ends(s, len, "_[k]"))
			return PAL_ORANGE;
		if (starts(s, len, "core::") || starts(s, len, "std::") ||
		    starts(s, len, "alloc::") || starts(s, len, "<core::") ||
		    starts(s, len, "<std::") || starts(s, len, "<alloc::"))
			return PAL_YELLOW;
		return has(s, len, "::") ? PAL_GREEN : PAL_RED;
	case PAL_WAKEUP:
		return PAL_AQUA;
	case PAL_CHAIN:
		return waker || has(s, len, "_[w]") ? PAL_AQUA : PAL_BLUE;
	default:
		return p;
	}
}

/* Perl's srand(seed); rand(1): one step of its drand48. */
static double perl_rand1(uint32_t seed)
{
	uint64_t x = ((uint64_t)seed << 16) + 0x330e;

	x = (x * 0x5deece66dull + 0xb) & 0xffffffffffffull;
	return (double)x / 281474976710656.0;
}

/* flamegraph.pl's default: the same shade for the same name, in any graph. */
static double name_seeded(const char *s, size_t len)
{
	uint32_t sum = 0, cp;

	for (size_t i = 0; i < len;) {
		if ((unsigned char)s[i] < 0x80) { /* most names are ASCII: no decoding call */
			sum += (unsigned char)s[i++];
			continue;
		}
		i += utf8_next(s + i, len - i, &cp);
		sum += cp;
	}
	return perl_rand1(sum);
}

/* --hash: weights the first three characters, after a "module`" prefix. */
static double name_gradient(const uint32_t *c, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	size_t start = 0;

	for (size_t i = 1; i < n; i++)
		if (c[i] == '`') {
			start = i + 1;
			break;
		}
	for (int mod = 10; start < n && mod <= 12; start++, mod++) {
		vector += (double)(c[start] % (uint32_t)mod) / (mod - 1) * weight;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
}

static void name_hashes(const char *s, size_t len, double *v1, double *v2)
{
	uint32_t stackbuf[256] = { 0 }, *c = stackbuf;
	size_t n = 0;

	if (len > 256 && !(c = malloc(len * sizeof(*c))))
		c = stackbuf, len = 256;
	for (size_t i = 0; i < len; n++)
		i += utf8_next(s + i, len - i, &c[n]);
	*v1 = name_gradient(c, n);
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t t = c[i];

		c[i] = c[n - 1 - i];
		c[n - 1 - i] = t;
	}
	*v2 = name_gradient(c, n);
	if (c != stackbuf)
		free(c);
}

/*
 * The colour of a base palette for the shades v1..v3 in [0, 1), with flamegraph.pl's ranges: hot
 * uses all three shades, mem and io two, the others one. Language palettes are mapped to a base one
 * by pick() first; anything else is black.
 */
static struct rgb flat(enum palette p, double v1, double v2, double v3)
{
	switch (p) {
	case PAL_HOT:
		return (struct rgb){ 205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2) };
	case PAL_MEM:
		return (struct rgb){ 0, 190 + (int)(50 * v2), (int)(210 * v1) };
	case PAL_IO:
		return (struct rgb){ 80 + (int)(60 * v1), 80 + (int)(60 * v1),
				     190 + (int)(55 * v2) };
	case PAL_RED:
		return (struct rgb){ 200 + (int)(55 * v1), 50 + (int)(80 * v1),
				     50 + (int)(80 * v1) };
	case PAL_GREEN:
		return (struct rgb){ 50 + (int)(60 * v1), 200 + (int)(55 * v1),
				     50 + (int)(60 * v1) };
	case PAL_BLUE:
		return (struct rgb){ 80 + (int)(60 * v1), 80 + (int)(60 * v1),
				     205 + (int)(50 * v1) };
	case PAL_YELLOW:
		return (struct rgb){ 175 + (int)(55 * v1), 175 + (int)(55 * v1),
				     50 + (int)(20 * v1) };
	case PAL_PURPLE:
		return (struct rgb){ 190 + (int)(65 * v1), 80 + (int)(60 * v1),
				     190 + (int)(65 * v1) };
	case PAL_AQUA:
		return (struct rgb){ 50 + (int)(60 * v1), 165 + (int)(55 * v1),
				     165 + (int)(55 * v1) };
	case PAL_ORANGE:
		return (struct rgb){ 190 + (int)(65 * v1), 90 + (int)(65 * v1), 0 };
	default:
		return (struct rgb){ 0, 0, 0 };
	}
}

struct rgb palette_color(enum palette p, enum color_mode mode, const char *name, size_t len,
			 int waker)
{
	double v1, v2, v3;

	if (mode == COLOR_BY_HASH) {
		name_hashes(name, len, &v1, &v2);
		v3 = v2;
	} else if (mode == COLOR_BY_RANDOM) {
		v1 = drand48(), v2 = drand48(), v3 = drand48();
	} else {
		v1 = v2 = v3 = name_seeded(name, len);
	}
	if (ends(name, len, "_[o]"))
		return flat(PAL_BLUE, v1, v2, v3);
	return flat(pick(p, name, len, waker), v1, v2, v3);
}

struct rgb palette_diff(double delta, double maxdelta, int negate)
{
	struct rgb c = { 255, 255, 255 };

	if (negate)
		delta = -delta;
	if (delta > 0)
		c.g = c.b = (unsigned char)(int)(210 * (maxdelta - delta) / maxdelta);
	else if (delta < 0)
		c.r = c.g = (unsigned char)(int)(210 * (maxdelta + delta) / maxdelta);
	return c;
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return 0;
	return 1;
}

int palette_background(const char *spec, enum palette p, char c1[8], char c2[8])
{
	static const struct {
		const char *name, *c1, *c2;
	} grads[] = {
		{ "yellow", "#eeeeee", "#eeeeb0" },
		{ "blue", "#eeeeee", "#e0e0ff" },
		{ "green", "#eef2ee", "#e0ffe0" },
		{ "grey", "#f8f8f8", "#e8e8e8" },
	};

	if (!spec) {
		if (p == PAL_MEM)
			spec = "green";
		else if (p == PAL_IO || p == PAL_WAKEUP || p == PAL_CHAIN)
			spec = "blue";
		else if (p >= PAL_RED)
			spec = "grey";
		else
			spec = "yellow";
	}
	if (spec[0] == '#' && strlen(spec) == 7 && is_hex(spec + 1, 6)) {
		memcpy(c1, spec, 8);
		memcpy(c2, spec, 8);
		return 0;
	}
	for (size_t i = 0; i < sizeof(grads) / sizeof(grads[0]); i++) {
		if (!strcmp(spec, grads[i].name)) {
			memcpy(c1, grads[i].c1, 8);
			memcpy(c2, grads[i].c2, 8);
			return 0;
		}
	}
	return -EINVAL;
}

int palette_valid_color(const char *s)
{
	size_t n = strlen(s);
	int r, g, b, end = 0;

	if (s[0] == '#')
		return (n == 4 || n == 7) && is_hex(s + 1, n - 1);
	if (sscanf(s, "rgb(%3d,%3d,%3d)%n", &r, &g, &b, &end) == 3 && (size_t)end == n)
		return r >= 0 && r < 256 && g >= 0 && g < 256 && b >= 0 && b < 256;
	if (n == 0 || n > 32)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return 0;
	return 1;
}
