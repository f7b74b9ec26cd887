/* SPDX-License-Identifier: BSD-2-Clause */
/* sock.c - the small sockets emberd serves and ember talks to: Unix and loopback TCP */
#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <unistd.h>

#include "lib/sock.h"

static int unix_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (!*path || strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

int sock_connect_unix(const char *path)
{
	struct sockaddr_un sa;
	int fd, err = unix_addr(path, &sa);

	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int listen_on(int fd, const struct sockaddr *sa, socklen_t len)
{
	int one = 1, err = 0;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, len) || listen(fd, 16))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int sock_listen_unix(const char *path, unsigned int mode)
{
	struct sockaddr_un sa;
	struct stat st;
	mode_t old;
	int fd, err = unix_addr(path, &sa);

	if (err)
		return err;
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode)) {
		fd = sock_connect_unix(path);
		if (fd >= 0) {
			close(fd);
			return -EADDRINUSE; /* someone answers there */
		}
		unlink(path); /* stale */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* Created with its mode: no chmod by path, which a swapped symlink would redirect. */
	old = umask(~mode & 0777);
	fd = listen_on(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	return fd;
}

static int loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	return sa->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* "127.0.0.1:9464", "[::1]:9464", "localhost:9464" -> host, port */
static int split_host_port(const char *addr, char *host, size_t size, const char **port)
{
	const char *colon = strrchr(addr, ':');
	const char *h = addr;
	size_t len;

	if (!colon || !colon[1])
		return -EINVAL;
	len = colon - addr;
	if (*h == '[') {
		if (len < 2 || addr[len - 1] != ']')
			return -EINVAL;
		h++;
		len -= 2;
	}
	if (!len || len >= size)
		return -EINVAL;
	memcpy(host, h, len);
	host[len] = '\0';
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	*port = colon + 1;
	return 0;
}

int sock_listen_addr(const char *addr)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	const char *port;
	char host[64];
	int fd, err;

	if (!strncmp(addr, "unix:", 5))
		return sock_listen_unix(addr + 5, 0660);
	err = split_host_port(addr, host, sizeof(host), &port);
	if (err)
		return err;
	if (getaddrinfo(host, port, &hints, &ai) || !ai)
		return -EINVAL;
	if (!loopback(ai->ai_addr)) {
		freeaddrinfo(ai);
		return -EACCES;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		fd = -errno;
	else
		fd = listen_on(fd, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return fd;
}

int sock_read(int fd, struct sbuf *out, size_t max, const char *stop)
{
	char buf[1024];

	while (out->len < max) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		if (sbuf_add(out, buf, (size_t)n))
			return -ENOMEM;
		if (stop && strstr(out->buf, stop))
			return 0;
	}
	return 0;
}

int sock_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
