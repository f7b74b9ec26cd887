/* SPDX-License-Identifier: BSD-2-Clause */
/* hash.h - a fast non-cryptographic hash of a byte string */
#ifndef EMBER_HASH_H
#define EMBER_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ember_hash_mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9fb21c651e98df25ull;
	return h ^ (h >> 29);
}

/*
 * Never 0, so that 0 can mark an empty slot. Long strings (stacks) go 32 bytes a
 * step in four independent lanes, so the multiplications overlap.
 */
static inline uint64_t ember_hash(const char *s, size_t len)
{
	uint64_t h = 0x243f6a8885a308d3ull ^ (len * 0x9e3779b97f4a7c15ull);
	uint64_t v;

	if (len >= 32) {
		uint64_t b = 0x13198a2e03707344ull, c = 0xa4093822299f31d0ull,
			 e = 0x082efa98ec4e6c89ull, w[4];

		for (; len >= 32; s += 32, len -= 32) {
			memcpy(w, s, 32);
			h = ember_hash_mix(h, w[0]);
			b = ember_hash_mix(b, w[1]);
			c = ember_hash_mix(c, w[2]);
			e = ember_hash_mix(e, w[3]);
		}
		h = ember_hash_mix(h, b) ^ ember_hash_mix(c, e);
	}
	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&v, s, 8);
		h = ember_hash_mix(h, v);
	}
	if (len) {
		v = 0;
		memcpy(&v, s, len);
		h = ember_hash_mix(h, v ^ 0xff);
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return h ? h : 1;
}

#endif
