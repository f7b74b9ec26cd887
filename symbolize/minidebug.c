/* SPDX-License-Identifier: BSD-2-Clause */
/* minidebug.c - decompress the xz payload of a .gnu_debugdata section (MiniDebugInfo) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <lzma.h>

#include "symbolize/minidebug.h"

/* Bounds the decoder's own memory as well as the output. */
#define MINIDEBUG_MEMLIMIT (128u << 20)

static int minidebug_grow(uint8_t **buf, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 64 * 1024;
	uint8_t *nb;

	if (*cap >= MINIDEBUG_MAX_BYTES)
		return -EFBIG;
	if (ncap > MINIDEBUG_MAX_BYTES)
		ncap = MINIDEBUG_MAX_BYTES;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

int minidebug_decompress(const void *in, size_t len, void **out, size_t *out_len)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	size_t cap = 0;
	lzma_ret ret;
	int err = 0;

	if (lzma_stream_decoder(&strm, MINIDEBUG_MEMLIMIT, 0) != LZMA_OK)
		return -ENOMEM;
	strm.next_in = in;
	strm.avail_in = len;
	do {
		if (strm.avail_out == 0) {
			size_t used = cap;

			err = minidebug_grow(&buf, &cap);
			if (err)
				goto cleanup;
			strm.next_out = buf + used;
			strm.avail_out = cap - used;
		}
		ret = lzma_code(&strm, LZMA_FINISH);
	} while (ret == LZMA_OK);
	if (ret != LZMA_STREAM_END) {
		err = ret == LZMA_MEM_ERROR || ret == LZMA_MEMLIMIT_ERROR ? -EFBIG : -EBADMSG;
		goto cleanup;
	}
	*out = buf;
	*out_len = cap - strm.avail_out;
	buf = NULL;
cleanup:
	lzma_end(&strm);
	free(buf);
	return err;
}
