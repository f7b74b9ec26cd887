/* SPDX-License-Identifier: BSD-2-Clause */
/* demangle.c - C++ (Itanium) and Rust (legacy and v0) symbol demangling (libiberty) */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "symbolize/demangle.h"

/*
 * Names come from other users' binaries. A few hundred bytes of chained back-references
 * demangle to gigabytes (each one doubles the output), so the output goes through a
 * callback into a fixed buffer, and the demangling is abandoned as soon as it outgrows it.
 * libiberty's callback demanglers allocate nothing on the heap, so leaving them by
 * longjmp leaks nothing.
 */
struct demangled {
	char buf[DEMANGLE_MAX + 1];
	size_t len;
	jmp_buf too_long;
};

static void demangled_add(const char *s, size_t n, void *opaque)
{
	struct demangled *d = opaque;

	if (!n)
		return; /* the Rust demangler prints empty identifiers as (NULL, 0) */
	if (n > DEMANGLE_MAX - d->len)
		longjmp(d->too_long, 1);
	memcpy(d->buf + d->len, s, n);
	d->len += n;
}

int demangle_candidate(const char *name)
{
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || (name[1] == '_' && name[2] == 'Z'));
}

char *demangle(const char *name)
{
	/* Without DMGL_VERBOSE Rust hashes are left out: one function keeps one name. */
	const int opts = DMGL_PARAMS | DMGL_ANSI;
	struct demangled *d;
	char *out = NULL;

	if (!demangle_candidate(name))
		return NULL;
	d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	d->len = 0;
	if (setjmp(d->too_long))
		goto cleanup; /* past DEMANGLE_MAX: the mangled name stays */
	/* Rust first (legacy _ZN...17h<hash>E and v0 _R...), then the Itanium C++ ABI. */
	if (!rust_demangle_callback(name, opts, demangled_add, d)) {
		d->len = 0;
		if (!cplus_demangle_v3_callback(name, opts, demangled_add, d))
			goto cleanup;
	}
	d->buf[d->len] = '\0';
	out = strdup(d->buf);
cleanup:
	free(d);
	return out;
}
