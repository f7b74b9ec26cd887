/* SPDX-License-Identifier: BSD-2-Clause */
/* libcmix.c - runs until killed, half in its own functions, half in libc (qsort, snprintf, memmove) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int values[256];
static char text[4096];
static volatile unsigned long sink;

static int libcmix_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) static void libcmix_sort(unsigned long seed)
{
	for (int i = 0; i < 256; i++)
		values[i] = (int)((seed = seed * 6364136223846793005ul + 1) >> 40);
	qsort(values, 256, sizeof(values[0]), libcmix_cmp);
}

__attribute__((noinline)) static void libcmix_format(unsigned long seed)
{
	size_t len = 0;

	for (int i = 0; i < 64 && len < sizeof(text) - 32; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%lu,",
					seed + (unsigned long)i);
	memmove(text + 1, text, len);
	sink += strlen(text);
}

__attribute__((noinline)) static void libcmix_hash(unsigned long seed)
{
	for (int i = 0; i < 20000; i++)
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	sink += seed;
}

int main(void)
{
	for (unsigned long n = 0;; n++) {
		libcmix_sort(n);
		libcmix_format(n);
		libcmix_hash(n);
	}
}
