/* SPDX-License-Identifier: BSD-2-Clause */
/* xmlesc.c - text made safe for XML: entities, forbidden characters and invalid UTF-8 replaced */
#include <errno.h>
#include <string.h>

#include "render/xmlesc.h"

#define REPLACEMENT 0xfffd

/* 1 for the bytes copied as they are; markup, controls, quotes and non-ASCII need a look. */
static const unsigned char plain[256] = {
	[' '] = 1, ['!'] = 1, ['#' ... '%'] = 1, ['(' ... ';'] = 1, ['='] = 1, ['?' ... '~'] = 1,
};

size_t utf8_next(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c = u[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		*cp = REPLACEMENT;
		return 1;
	}
	if (len < n)
		goto invalid;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			goto invalid;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto invalid;
	*cp = c;
	return n;
invalid:
	*cp = REPLACEMENT;
	return 1;
}

size_t utf8_count(const char *s, size_t len)
{
	size_t n = 0, i = 0;
	uint32_t cp;

	while (i < len) {
		i += (unsigned char)s[i] < 0x80 ? 1 : utf8_next(s + i, len - i, &cp);
		n++;
	}
	return n;
}

size_t utf8_prefix(const char *s, size_t len, size_t n)
{
	size_t i = 0;
	uint32_t cp;

	while (i < len && n--)
		i += (unsigned char)s[i] < 0x80 ? 1 : utf8_next(s + i, len - i, &cp);
	return i;
}

/*
 * The character at s, which is not plain ASCII text: markup characters, quotes and tab as
 * references; other controls (newlines included), U+FFFE, U+FFFF and each byte of invalid UTF-8 as
 * U+FFFD; anything else as it is. Sets *used to the bytes taken. Returns 0 or -ENOMEM.
 */
static int escape_char(struct sbuf *sb, const char *s, size_t len, size_t *used)
{
	static const char fffd[] = "\xef\xbf\xbd";
	uint32_t cp;

	switch (s[0]) {
	case '&':
		*used = 1;
		return sbuf_add(sb, "&amp;", 5);
	case '<':
		*used = 1;
		return sbuf_add(sb, "&lt;", 4);
	case '>':
		*used = 1;
		return sbuf_add(sb, "&gt;", 4);
	case '"':
		*used = 1;
		return sbuf_add(sb, "&quot;", 6);
	case '\'':
		*used = 1;
		return sbuf_add(sb, "&#39;", 5);
	case '\t':
		*used = 1;
		return sbuf_add(sb, "&#9;", 4);
	}
	*used = utf8_next(s, len, &cp);
	if (cp < 0x20 || cp == 0xfffe || cp == 0xffff || cp == REPLACEMENT)
		return sbuf_add(sb, fffd, 3);
	return sbuf_add(sb, s, *used);
}

int xml_escape(struct sbuf *sb, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t run = i, used;

		while (run < len && plain[(unsigned char)s[run]])
			run++;
		if (run > i && sbuf_add(sb, s + i, run - i))
			return -ENOMEM;
		i = run;
		if (i == len)
			break;
		if (escape_char(sb, s + i, len - i, &used))
			return -ENOMEM;
		i += used;
	}
	return 0;
}
