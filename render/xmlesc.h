/* SPDX-License-Identifier: BSD-2-Clause */
/* xmlesc.h - text made safe for XML: entities, forbidden characters and invalid UTF-8 replaced */
#ifndef EMBER_XMLESC_H
#define EMBER_XMLESC_H

#include <stddef.h>
#include <stdint.h>

#include "lib/sbuf.h"

/*
 * Decode one character of s (len > 0). Returns the bytes it takes (at least 1) and sets *cp,
 * or U+FFFD for a byte that does not start valid UTF-8 (overlong forms, surrogates and
 * code points past U+10FFFF are invalid), which then takes one byte.
 */
size_t utf8_next(const char *s, size_t len, uint32_t *cp);

/* Characters in s, each invalid byte counting as one (as it is drawn: one U+FFFD). */
size_t utf8_count(const char *s, size_t len);

/* Bytes taken by the first n characters of s. */
size_t utf8_prefix(const char *s, size_t len, size_t n);

/*
 * Append s for use as XML character data or a quoted attribute value: & < > " ' become
 * entities; characters XML 1.0 forbids (controls other than tab, U+FFFE, U+FFFF) and invalid
 * UTF-8 become U+FFFD. The result is always well-formed. Returns 0 or -ENOMEM.
 */
int xml_escape(struct sbuf *sb, const char *s, size_t len);

#endif
