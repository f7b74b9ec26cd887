/* SPDX-License-Identifier: BSD-2-Clause */
/* text.h - byte classes as Perl regexes see them in byte strings (\s, \d, \w) */
#ifndef EMBER_TEXT_H
#define EMBER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

/* \s: space, \t, \n, \v, \f, \r */
static inline bool text_is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool text_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool text_is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || text_is_digit(c) || c == '_';
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
