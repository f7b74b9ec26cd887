/* SPDX-License-Identifier: BSD-2-Clause */
/* loop.c - the event loop: signals, clock-aligned drains and windows, process events */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "daemon/archive.h"
#include "daemon/control.h"
#include "daemon/emberd.h"
#include "daemon/log.h"
#include "daemon/metrics.h"


enum { SRC_SIGNAL, SRC_TIMER, SRC_PROCS, SRC_CONTROL, SRC_METRICS };

struct loop {
	int epfd, sigfd, timerfd;
	time_t next_tick, window_end;
};

static unsigned int drain_period(const struct config *cfg)
{
	unsigned int p = cfg->window_sec;

	/* The largest divisor of the window not above DRAIN_MAX_SEC keeps ticks aligned. */
	for (unsigned int d = DRAIN_MAX_SEC; d > 1; d--)
		if (p % d == 0)
			return d;
	return p < DRAIN_MAX_SEC ? p : 1;
}

/* time() reads the coarse clock, which can lag a timerfd deadline by a tick. */
static time_t now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

static time_t align_up(time_t t, unsigned int period)
{
	return (t / period + 1) * period;
}

static int arm_timer(struct loop *l)
{
	struct itimerspec its = { .it_value = { .tv_sec = l->next_tick } };

	if (timerfd_settime(l->timerfd, TFD_TIMER_ABSTIME, &its, NULL))
		return -errno;
	return 0;
}

static int drain_all(struct emberd *d)
{
	int err = 0;

	for (int i = 0; i < d->ncollectors; i++) {
		int e = d->collectors[i]->drain(d->collectors[i], d->win);

		if (e) {
			log_err("cannot drain the %s collector: %s", d->collectors[i]->name,
				strerror(-e));
			err = e;
		}
	}
	return err;
}

/* Write the current window (or a snapshot of it) and, unless a snapshot, start the next. */
static int write_window(struct emberd *d, time_t end, int snapshot, struct archive_result *res)
{
	unsigned int both = COLLECT_ONCPU | COLLECT_OFFCPU;
	int n = (d->cfg.collect & both) == both ? window_hotcold(d->win, d->cfg.freq) : 0;

	if (n)
		log_err("cannot build the hot/cold profile: %s, ignoring", strerror(-n));
	n = emberd_write(d, end, snapshot, res);
	if (n > 0)
		log_info("%s written: %d profile(s)", snapshot ? "snapshot" : "window", n);
	if (snapshot)
		return n < 0 ? n : 0;
	symreport_window(&d->symrep, d->sym, d->win, end);
	struct window *next = window_new(end);
	if (!next)
		return -ENOMEM;
	window_free(d->win);
	d->win = next;
	symbolizer_end_window(d->sym);
	return n < 0 ? n : 0;
}

int emberd_snapshot(struct emberd *d, struct archive_result *res)
{
	drain_all(d);
	return write_window(d, now_sec(), 1, res);
}

static int on_timer(struct emberd *d, struct loop *l)
{
	uint64_t expirations;
	time_t now = now_sec();
	int err;

	if (read(l->timerfd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		return -errno;
	if (now < l->next_tick)
		return arm_timer(l);
	drain_all(d);
	err = 0;
	if (now >= l->window_end) {
		err = write_window(d, l->window_end, 0, NULL);
		l->window_end = align_up(now, d->cfg.window_sec);
		d->win->start = l->window_end - d->cfg.window_sec;
	}
	l->next_tick = align_up(now, drain_period(&d->cfg));
	/* A window that could not be written is counted: ticks go on. */
	return arm_timer(l) ?: err;
}

/* Returns 1 when the daemon must stop. */
static int on_signal(struct emberd *d, struct loop *l)
{
	struct signalfd_siginfo si;

	if (read(l->sigfd, &si, sizeof(si)) != sizeof(si))
		return 0;
	switch (si.ssi_signo) {
	case SIGUSR1:
		log_info("SIGUSR1: writing a snapshot");
		emberd_snapshot(d, NULL);
		return 0;
	case SIGHUP:
		log_info("SIGHUP: no configuration file to reload, ignoring");
		return 0;
	default:
		log_info("SIG%s: writing the current window and exiting", sigabbrev_np(si.ssi_signo));
		return 1;
	}
}

static int loop_init(struct emberd *d, struct loop *l)
{
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t mask;
	time_t now = now_sec();

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	l->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	l->timerfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->sigfd < 0 || l->timerfd < 0 || l->epfd < 0)
		return -errno;
	ev.data.u32 = SRC_SIGNAL;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->sigfd, &ev))
		return -errno;
	ev.data.u32 = SRC_TIMER;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->timerfd, &ev))
		return -errno;
	ev.data.u32 = SRC_PROCS;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, procs_fd(d->procs), &ev))
		return -errno;
	ev.data.u32 = SRC_CONTROL;
	if (d->control && epoll_ctl(l->epfd, EPOLL_CTL_ADD, control_fd(d->control), &ev))
		return -errno;
	ev.data.u32 = SRC_METRICS;
	if (d->metrics && epoll_ctl(l->epfd, EPOLL_CTL_ADD, metrics_fd(d->metrics), &ev))
		return -errno;
	l->window_end = align_up(now, d->cfg.window_sec);
	d->win->start = l->window_end - d->cfg.window_sec;
	l->next_tick = align_up(now, drain_period(&d->cfg));
	return arm_timer(l);
}

static void loop_release(struct loop *l)
{
	if (l->epfd >= 0)
		close(l->epfd);
	if (l->sigfd >= 0)
		close(l->sigfd);
	if (l->timerfd >= 0)
		close(l->timerfd);
}

int emberd_loop(struct emberd *d)
{
	struct loop l = { .epfd = -1, .sigfd = -1, .timerfd = -1 };
	struct epoll_event evs[4];
	int err, stop = 0;

	err = loop_init(d, &l);
	if (err) {
		log_err("cannot set up the event loop: %s", strerror(-err));
		goto cleanup;
	}
	while (!stop) {
		int n = epoll_wait(l.epfd, evs, 4, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		for (int i = 0; i < n && !stop; i++) {
			if (evs[i].data.u32 == SRC_SIGNAL)
				stop = on_signal(d, &l);
			else if (evs[i].data.u32 == SRC_TIMER)
				err = on_timer(d, &l);
			else if (evs[i].data.u32 == SRC_CONTROL)
				control_serve(d->control, d);
			else if (evs[i].data.u32 == SRC_METRICS)
				metrics_serve(d->metrics, d);
			else
				procs_consume(d->procs);
		}
	}
	/* Detach, then drain both buffers: the last window gets every sample counted. */
	for (int i = 0; i < d->ncollectors; i++)
		d->collectors[i]->detach(d->collectors[i]);
	procs_consume(d->procs);
	drain_all(d);
	drain_all(d);
	err = write_window(d, now_sec(), 0, NULL);
cleanup:
	loop_release(&l);
	return err;
}
