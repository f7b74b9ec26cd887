/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * viewname.c - frame names made safe for a terminal. Names come from other users' processes:
 * an escape sequence, a bell or an OSC 52 clipboard write in one must never reach the
 * terminal as it is. Only printable characters pass; anything else becomes U+FFFD.
 */
#include <string.h>
#include <wctype.h>

#include "cli/view.h"
#include "lib/sbuf.h"

#define REPLACEMENT 0xfffd

/* Decode one UTF-8 sequence strictly (no overlongs, surrogates or values past U+10FFFF). */
static long utf8_decode(const unsigned char **p, const unsigned char *end)
{
	static const long min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	const unsigned char *s = *p;
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
	long c = n == 1 ? s[0] : s[0] & (0x7f >> n);

	if (n == 1) {
		*p = s + 1;
		return s[0] < 0x80 ? c : -1;
	}
	if (s[0] > 0xf4 || end - s < n) {
		*p = s + 1;
		return -1;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p = s + i;
			return -1;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	*p = s + n;
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	return c;
}

wchar_t view_name_char(const char **p, const char *end, int utf8, int *cols)
{
	const unsigned char *s = (const unsigned char *)*p;
	long c;
	int w;

	if (!utf8) {
		*p += 1;
		*cols = 1;
		return s[0] >= 0x20 && s[0] < 0x7f ? (wchar_t)s[0] : L'?';
	}
	c = utf8_decode(&s, (const unsigned char *)end);
	*p = (const char *)s;
	w = c < 0x20 || (c >= 0x7f && c < 0xa0) ? -1 : wcwidth((wchar_t)c);
	if (w < 0) {
		*cols = 1;
		return REPLACEMENT;
	}
	*cols = w;
	return (wchar_t)c;
}

/* Append c as 1 to 4 bytes of UTF-8, unchecked (a surrogate is encoded too). 0 or -ENOMEM. */
static int add_utf8(struct sbuf *out, wchar_t c)
{
	char b[4];
	int n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	return sbuf_add(out, b, (size_t)n);
}

int view_name_text(const char *s, size_t len, int utf8, int maxcols, struct sbuf *out)
{
	const char *end = s + len;
	int used = 0, w;

	while (s < end) {
		wchar_t c = view_name_char(&s, end, utf8, &w);

		if (!w)
			continue;
		if (used + w > maxcols)
			break;
		if (add_utf8(out, c))
			return -ENOMEM;
		used += w;
	}
	return 0;
}

size_t view_name_shown(const char *s, size_t len)
{
	if (len > 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' && s[len - 2] &&
	    strchr("kjiwo", s[len - 2]))
		return len - 4;
	return len;
}
