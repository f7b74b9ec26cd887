/* SPDX-License-Identifier: BSD-2-Clause */
/* minidebug.h - decompress the xz payload of a .gnu_debugdata section (MiniDebugInfo) */
#ifndef EMBER_MINIDEBUG_H
#define EMBER_MINIDEBUG_H

#include <stddef.h>

/* Largest decompressed MiniDebugInfo we accept. */
#define MINIDEBUG_MAX_BYTES (64u << 20)

/*
 * Decompress one xz stream of len bytes into a new malloc()ed buffer of at most
 * MINIDEBUG_MAX_BYTES. Returns 0 or -errno (-ENOTSUP: built without liblzma,
 * -EBADMSG: corrupt, -EFBIG: too large).
 */
int minidebug_decompress(const void *in, size_t len, void **out, size_t *out_len);

#endif
