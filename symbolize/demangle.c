/* SPDX-License-Identifier: BSD-2-Clause */
/* demangle.c - C++ (Itanium) and Rust (legacy and v0) symbol demangling (libiberty) */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "symbolize/demangle.h"

int demangle_candidate(const char *name)
{
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || (name[1] == '_' && name[2] == 'Z'));
}

char *demangle(const char *name)
{
	/*
	 * The automatic style tries Rust (legacy _ZN...17h<hash>E and v0 _R...)
	 * first and falls back to the Itanium C++ ABI. Without DMGL_VERBOSE Rust
	 * hashes are left out, so one function keeps one name across builds.
	 */
	if (!demangle_candidate(name))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
