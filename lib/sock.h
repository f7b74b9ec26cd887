/* SPDX-License-Identifier: BSD-2-Clause */
/* sock.h - the small sockets emberd serves and ember talks to: Unix and loopback TCP */
#ifndef EMBER_SOCK_H
#define EMBER_SOCK_H

#include <stddef.h>

#include "lib/sbuf.h"

/*
 * Listen on a Unix socket at path, mode applied. A stale socket there is replaced; one that
 * answers is -EADDRINUSE. Returns fd or -errno.
 */
int sock_listen_unix(const char *path, unsigned int mode);

/*
 * Listen on "HOST:PORT" (HOST a loopback address: 127.x.x.x, [::1] or localhost) or
 * "unix:PATH". Returns fd, -EINVAL for a malformed address, -EACCES for one not on
 * loopback, or -errno.
 */
int sock_listen_addr(const char *addr);

/* Connect to a Unix socket. Returns fd or -errno. */
int sock_connect_unix(const char *path);

/* Read until end of stream, the string stop (if not NULL), the timeout or max bytes. Returns 0 or -errno. */
int sock_read(int fd, struct sbuf *out, size_t max, const char *stop);

/* Write all of buf. Returns 0 or -errno. */
int sock_write_all(int fd, const void *buf, size_t len);

#endif
