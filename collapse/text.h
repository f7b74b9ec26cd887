/* SPDX-License-Identifier: BSD-2-Clause */
/* text.h - byte classes as Perl regexes see them in byte strings (\s, \d, \w) */
#ifndef EMBER_TEXT_H
#define EMBER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

enum { TEXT_SPACE = 1, TEXT_DIGIT = 2, TEXT_WORD = 4 };

/* One load per byte: parsers test every byte of every frame line against these classes. */
static const unsigned char text_class[256] = {
	['\t'] = TEXT_SPACE,
	['\n'] = TEXT_SPACE,
	['\v'] = TEXT_SPACE,
	['\f'] = TEXT_SPACE,
	['\r'] = TEXT_SPACE,
	[' '] = TEXT_SPACE,
	['0' ... '9'] = TEXT_DIGIT | TEXT_WORD,
	['A' ... 'Z'] = TEXT_WORD,
	['a' ... 'z'] = TEXT_WORD,
	['_'] = TEXT_WORD,
};

/* \s: space, \t, \n, \v, \f, \r */
static inline bool text_is_space(char c)
{
	return text_class[(unsigned char)c] & TEXT_SPACE;
}

static inline bool text_is_digit(char c)
{
	return text_class[(unsigned char)c] & TEXT_DIGIT;
}

/* \w: [A-Za-z0-9_] */
static inline bool text_is_word(char c)
{
	return text_class[(unsigned char)c] & TEXT_WORD;
}

/* *v = *v * 10 + the digit c, exactly; false when that passes UINT64_MAX. */
static inline bool text_add_digit(uint64_t *v, char c)
{
	uint64_t d = (uint64_t)(c - '0');

	if (*v > (UINT64_MAX - d) / 10)
		return false;
	*v = *v * 10 + d;
	return true;
}

#endif
