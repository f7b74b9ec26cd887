/* SPDX-License-Identifier: BSD-2-Clause */
/* sockserv.c - non-blocking request/reply clients for the control and metrics sockets */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "daemon/sockserv.h"

struct client {
	int fd; /* -1: free slot */
	int64_t deadline_ms;
	struct sbuf in, out;
	size_t sent; /* bytes of out written; replying once out is set */
	int replying;
};

struct sockserv {
	int lfd, epfd;
	uint32_t tag;
	const char *stop;
	size_t max;
	int timeout_ms;
	sockserv_fn fn;
	struct client clients[SOCKSERV_MAX_CLIENTS];
};

#define LISTENER UINT32_MAX /* the slot carried by the listener's events */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static uint64_t event_data(const struct sockserv *s, uint32_t slot)
{
	return (uint64_t)slot << 32 | s->tag;
}

struct sockserv *sockserv_new(int lfd, const char *stop, size_t max, int timeout_ms, sockserv_fn fn)
{
	struct sockserv *s = calloc(1, sizeof(*s));
	int flags = fcntl(lfd, F_GETFL);

	if (!s || flags < 0 || fcntl(lfd, F_SETFL, flags | O_NONBLOCK)) {
		free(s);
		return NULL;
	}
	*s = (struct sockserv){ lfd, -1, 0, stop, max, timeout_ms, fn, { { 0 } } };
	for (int i = 0; i < SOCKSERV_MAX_CLIENTS; i++)
		s->clients[i].fd = -1;
	return s;
}

static void client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd); /* also leaves the epoll set */
	c->fd = -1;
	sbuf_release(&c->in);
	sbuf_release(&c->out);
}

void sockserv_free(struct sockserv *s)
{
	if (!s)
		return;
	for (int i = 0; i < SOCKSERV_MAX_CLIENTS; i++)
		client_close(&s->clients[i]);
	close(s->lfd);
	free(s);
}

int sockserv_watch(struct sockserv *s, int epfd, uint32_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN };

	s->epfd = epfd;
	s->tag = tag;
	ev.data.u64 = event_data(s, LISTENER);
	return epoll_ctl(epfd, EPOLL_CTL_ADD, s->lfd, &ev) ? -errno : 0;
}

/* A free slot, or the one closest to its deadline, closed: a flood of silent clients
 * cannot keep a real one out. */
static struct client *free_slot(struct sockserv *s)
{
	struct client *oldest = &s->clients[0];

	for (int i = 0; i < SOCKSERV_MAX_CLIENTS; i++) {
		if (s->clients[i].fd < 0)
			return &s->clients[i];
		if (s->clients[i].deadline_ms < oldest->deadline_ms)
			oldest = &s->clients[i];
	}
	log_debug("socket: %d clients at once, dropping the oldest", SOCKSERV_MAX_CLIENTS);
	client_close(oldest);
	return oldest;
}

static void on_accept(struct sockserv *s)
{
	int fd;

	while ((fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		struct client *c = free_slot(s);
		struct epoll_event ev = { .events = EPOLLIN };

		c->fd = fd;
		c->deadline_ms = now_ms() + s->timeout_ms;
		c->sent = 0;
		c->replying = 0;
		ev.data.u64 = event_data(s, (uint32_t)(c - s->clients));
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev))
			client_close(c);
	}
}

/* Write what the socket takes; closes the client once all is sent or on error. */
static void send_reply(struct sockserv *s, struct client *c)
{
	while (c->sent < c->out.len) {
		ssize_t n = send(c->fd, c->out.buf + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct epoll_event ev = { .events = EPOLLOUT,
						  .data.u64 = event_data(
							  s, (uint32_t)(c - s->clients)) };

			if (epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev))
				break;
			return;
		}
		if (n <= 0)
			break;
		c->sent += (size_t)n;
	}
	client_close(c);
}

/* Read what is there; once the request is whole, answer it. */
static void on_readable(struct sockserv *s, struct client *c, void *arg)
{
	char buf[1024];
	int done = 0;

	while (!done && c->in.len < s->max) {
		size_t room = s->max - c->in.len;
		ssize_t n = read(c->fd, buf, room < sizeof(buf) ? room : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return; /* more later */
		if (n < 0 || (n == 0 && !c->in.len)) {
			client_close(c);
			return;
		}
		if (n == 0 || sbuf_add(&c->in, buf, (size_t)n))
			done = 1;
		else if (strstr(c->in.buf, s->stop))
			done = 1;
	}
	if (!c->in.len) {
		client_close(c);
		return;
	}
	c->replying = 1;
	s->fn(arg, c->in.buf, c->in.len, &c->out);
	send_reply(s, c);
}

void sockserv_event(struct sockserv *s, uint64_t data, uint32_t events, void *arg)
{
	uint32_t slot = (uint32_t)(data >> 32);
	struct client *c;

	if (slot == LISTENER) {
		on_accept(s);
		return;
	}
	if (slot >= SOCKSERV_MAX_CLIENTS || s->clients[slot].fd < 0)
		return;
	c = &s->clients[slot];
	if (c->replying)
		send_reply(s, c);
	else if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
		on_readable(s, c, arg);
}

int sockserv_expire(struct sockserv *s)
{
	int64_t now = now_ms(), next = -1;

	for (int i = 0; i < SOCKSERV_MAX_CLIENTS; i++) {
		struct client *c = &s->clients[i];

		if (c->fd < 0)
			continue;
		if (c->deadline_ms <= now) {
			client_close(c);
			continue;
		}
		if (next < 0 || c->deadline_ms - now < next)
			next = c->deadline_ms - now;
	}
	return (int)next;
}
