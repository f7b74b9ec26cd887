/* SPDX-License-Identifier: BSD-2-Clause */
/* demangle.h - C++ (Itanium) and Rust (legacy and v0) symbol demangling */
#ifndef EMBER_DEMANGLE_H
#define EMBER_DEMANGLE_H

/* Whether name looks mangled at all (cheap test before demangle()). */
int demangle_candidate(const char *name);
/* Longer demangled names are not made: the mangled name is kept instead. */
#define DEMANGLE_MAX 4096

/*
 * A malloc()ed demangled name (C++ with parameters; Rust without its hash), or
 * NULL when name is not a valid mangled name, would demangle past DEMANGLE_MAX bytes,
 * or memory is short.
 */
char *demangle(const char *name);

#endif
