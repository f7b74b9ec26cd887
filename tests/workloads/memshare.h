/* SPDX-License-Identifier: BSD-2-Clause */
/* memshare.h - the C++ path of memshare (memshare_new.cc), called from its C main */
#ifndef EMBER_MEMSHARE_H
#define EMBER_MEMSHARE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* n blocks of block bytes from operator new, each deleted. */
void path_new(int n, size_t block);

#ifdef __cplusplus
}
#endif

#endif
