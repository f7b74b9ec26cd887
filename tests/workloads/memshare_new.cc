/* SPDX-License-Identifier: BSD-2-Clause */
/* memshare_new.cc - memshare's operator new path: main -> path_new -> alloc_new -> operator new */
#include <new>

#include "memshare.h"

static void *volatile sink;

extern "C" __attribute__((noipa)) void *alloc_new(size_t n)
{
	void *p = ::operator new(n);

	sink = p;
	return p;
}

extern "C" __attribute__((noipa)) void path_new(int n, size_t block)
{
	for (int i = 0; i < n; i++)
		::operator delete(alloc_new(block));
}
