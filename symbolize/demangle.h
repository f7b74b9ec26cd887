/* SPDX-License-Identifier: BSD-2-Clause */
/* demangle.h - C++ (Itanium) and Rust (legacy and v0) symbol demangling */
#ifndef EMBER_DEMANGLE_H
#define EMBER_DEMANGLE_H

/* Whether name looks mangled at all (cheap test before demangle()). */
int demangle_candidate(const char *name);
/*
 * A malloc()ed demangled name (C++ with parameters; Rust without its hash), or
 * NULL when name is not a valid mangled name or memory is short.
 */
char *demangle(const char *name);

#endif
