/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loop.c - the event loop: signals, clock-aligned drains and windows, process events
 *
 * emberd is one thread around one epoll set: a signalfd (SIGTERM/SIGINT stop, SIGHUP
 * reloads, SIGUSR1 snapshots), a timerfd armed on absolute wall-clock ticks, the process
 * ring buffer, the systemd watchdog timer and the control and metrics servers. Nothing in
 * a handler may block: sockets are non-blocking with per-client deadlines, and the epoll
 * wait is bounded by the nearest deadline.
 *
 * Ticks fall on multiples of the drain period (the largest divisor of the window up to
 * DRAIN_MAX_SEC), so windows start and end on round times ("12:34:00") whatever the start
 * time. Each tick drains every collector into the current window; the tick at or after the
 * window's end also writes it (output.c) and starts the next. A step of the wall clock
 * cancels the timer (TFD_TIMER_CANCEL_ON_SET): the window is written as it stands and the
 * ticks realign, so a clock set backwards never stalls the drains.
 *
 * On stop, collectors are detached first and then drained twice (both buffers), so the
 * last window holds every sample counted before the exit.
 */
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
#include "lib/log.h"
#include "daemon/metrics.h"
#include "daemon/notify.h"
#include "daemon/sockserv.h"

enum { SRC_SIGNAL, SRC_TIMER, SRC_PROCS, SRC_WATCHDOG, SRC_CONTROL, SRC_METRICS };

struct loop {
	int epfd, sigfd, timerfd, wdfd;
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

/* A step of the wall clock cancels the timer (ECANCELED on read) so the ticks realign. */
static int arm_timer(struct loop *l)
{
	struct itimerspec its = { .it_value = { .tv_sec = l->next_tick } };

	if (timerfd_settime(l->timerfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL))
		return -errno;
	return 0;
}

/*
 * The wall clock was set: a window whose end is no longer within one window length
 * ahead is written as it stands (it ends where it was planned to) and the next one
 * starts aligned to the new time, so a step backwards never stalls the drains.
 */
static int on_clock_step(struct emberd *d, struct loop *l, time_t now)
{
	unsigned int period = drain_period(&d->cfg);
	int err = 0, armed;

	/*
	 * A step while the window is written, before the timer is armed again, cancels
	 * nothing: the tick would wait for a time the clock left. So the time is read again
	 * after arming, and the tick realigned until it is within one period ahead.
	 */
	for (int tries = 0; tries < 4; tries++) {
		if (l->window_end <= now || l->window_end > now + (time_t)d->cfg.window_sec) {
			log_warn("the wall clock was set past the window's end or back beyond its "
				 "start: the window so far is written, the next one starts at the "
				 "new time");
			emberd_drain(d);
			err = emberd_close_window(d, l->window_end) ?: err;
			l->window_end = align_up(now, d->cfg.window_sec);
			d->win->start = now;
		} else {
			/* A small step (NTP, a VM's clock sync): the window ends where planned. */
			log_debug("the wall clock was set: drain ticks realigned");
		}
		l->next_tick = align_up(now, period);
		armed = arm_timer(l);
		if (armed)
			return armed;
		now = now_sec();
		if (l->next_tick > now && l->next_tick <= now + (time_t)period)
			break;
	}
	return err;
}

/*
 * A tick: drain every collector and, once the window's end is reached, write the window and start
 * the next one on the next multiple of the window length. A wakeup before the planned tick only
 * re-arms the timer; a clock step goes to on_clock_step(). Returns 0 or a negative errno, the timer
 * re-armed first even when the window could not be written.
 */
static int on_timer(struct emberd *d, struct loop *l)
{
	uint64_t expirations;
	time_t now = now_sec();
	int err, armed;

	if (read(l->timerfd, &expirations, sizeof(expirations)) < 0) {
		if (errno == ECANCELED)
			return on_clock_step(d, l, now);
		if (errno != EAGAIN)
			return -errno;
	}
	if (now < l->next_tick)
		return arm_timer(l);
	emberd_drain(d);
	err = 0;
	if (now >= l->window_end) {
		err = emberd_close_window(d, l->window_end);
		l->window_end = align_up(now, d->cfg.window_sec);
		d->win->start = l->window_end - d->cfg.window_sec;
	}
	l->next_tick = align_up(now, drain_period(&d->cfg));
	/* A window that could not be written is counted: ticks go on. */
	armed = arm_timer(l);
	if (armed)
		return armed;
	/* The clock was set while we worked, before the timer was armed: nothing cancelled it. */
	now = now_sec();
	if (l->next_tick <= now || l->next_tick > now + (time_t)drain_period(&d->cfg))
		return on_clock_step(d, l, now) ?: err;
	return err;
}

static void on_reload(struct emberd *d, struct loop *l)
{
	time_t now = now_sec();

	log_info("SIGHUP: reloading %s", d->cli.file ? d->cli.file : "the command line");
	notify_send("RELOADING=1");
	if (!emberd_reload(d)) {
		/* The current window ends as planned, or sooner on a shorter window. */
		if (align_up(now, d->cfg.window_sec) < l->window_end)
			l->window_end = align_up(now, d->cfg.window_sec);
		l->next_tick = align_up(now, drain_period(&d->cfg));
		if (arm_timer(l))
			log_err("cannot re-arm the timer: %s", strerror(errno));
	}
	notify_send("READY=1");
	emberd_notify_status(d);
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
		on_reload(d, l);
		return 0;
	default:
		log_info("SIG%s: writing the current window and exiting",
			 sigabbrev_np(si.ssi_signo));
		return 1;
	}
}

/* Ping systemd's watchdog at half the interval it asks for, from this loop. */
static int watchdog_init(struct loop *l)
{
	uint64_t usec = notify_watchdog_usec() / 2;
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = SRC_WATCHDOG };
	struct itimerspec its;

	if (!usec)
		return 0;
	its.it_value.tv_sec = its.it_interval.tv_sec = usec / 1000000;
	its.it_value.tv_nsec = its.it_interval.tv_nsec = usec % 1000000 * 1000;
	l->wdfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (l->wdfd < 0 || timerfd_settime(l->wdfd, 0, &its, NULL) ||
	    epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->wdfd, &ev))
		return -errno;
	return 0;
}

static void on_watchdog(struct loop *l)
{
	uint64_t expirations;

	if (read(l->wdfd, &expirations, sizeof(expirations)) > 0)
		notify_send("WATCHDOG=1");
}

int emberd_block_signals(sigset_t *mask)
{
	sigemptyset(mask);
	sigaddset(mask, SIGUSR1);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGINT);
	return sigprocmask(SIG_BLOCK, mask, NULL) ? -errno : 0;
}

/*
 * Block the handled signals and put the signalfd, the wall-clock timer, the process ring buffer,
 * the control and metrics servers and the watchdog timer in one epoll set. The first window is
 * dated from the aligned time before now, so it covers less than its length. Returns 0 or a
 * negative errno; the caller closes what was opened.
 */
static int loop_init(struct emberd *d, struct loop *l)
{
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t mask;
	time_t now = now_sec();
	int err = emberd_block_signals(&mask);

	if (err)
		return err;
	l->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	l->timerfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->sigfd < 0 || l->timerfd < 0 || l->epfd < 0)
		return -errno;
	ev.data.u64 = SRC_SIGNAL;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->sigfd, &ev))
		return -errno;
	ev.data.u64 = SRC_TIMER;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->timerfd, &ev))
		return -errno;
	ev.data.u64 = SRC_PROCS;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, procs_fd(d->procs), &ev))
		return -errno;
	if (d->control && (err = sockserv_watch(control_server(d->control), l->epfd, SRC_CONTROL)))
		return err;
	if (d->metrics && (err = sockserv_watch(metrics_server(d->metrics), l->epfd, SRC_METRICS)))
		return err;
	l->window_end = align_up(now, d->cfg.window_sec);
	d->win->start = l->window_end - d->cfg.window_sec;
	l->next_tick = align_up(now, drain_period(&d->cfg));
	return watchdog_init(l) ?: arm_timer(l);
}

static void loop_release(struct loop *l)
{
	if (l->epfd >= 0)
		close(l->epfd);
	if (l->sigfd >= 0)
		close(l->sigfd);
	if (l->timerfd >= 0)
		close(l->timerfd);
	if (l->wdfd >= 0)
		close(l->wdfd);
}

/* How long epoll may wait: until the first control or metrics client runs out of time. */
static int clients_timeout(struct emberd *d)
{
	int c = d->control ? sockserv_expire(control_server(d->control)) : -1;
	int m = d->metrics ? sockserv_expire(metrics_server(d->metrics)) : -1;

	return c < 0 ? m : m < 0 ? c : c < m ? c : m;
}

int emberd_loop(struct emberd *d)
{
	struct loop l = { .epfd = -1, .sigfd = -1, .timerfd = -1, .wdfd = -1 };
	struct epoll_event evs[4];
	int err, stop = 0;

	err = loop_init(d, &l);
	if (err) {
		log_err("cannot set up the event loop: %s", strerror(-err));
		goto cleanup;
	}
	notify_send("READY=1");
	emberd_notify_status(d);
	while (!stop) {
		int n = epoll_wait(l.epfd, evs, 4, clients_timeout(d));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		for (int i = 0; i < n && !stop; i++) {
			uint32_t src = (uint32_t)evs[i].data.u64; /* sockserv: slot above */

			if (src == SRC_SIGNAL)
				stop = on_signal(d, &l);
			else if (src == SRC_TIMER)
				err = on_timer(d, &l);
			else if (src == SRC_WATCHDOG)
				on_watchdog(&l);
			else if (src == SRC_CONTROL)
				sockserv_event(control_server(d->control), evs[i].data.u64,
					       evs[i].events, d);
			else if (src == SRC_METRICS)
				sockserv_event(metrics_server(d->metrics), evs[i].data.u64,
					       evs[i].events, d);
			else
				procs_consume(d->procs);
		}
	}
	notify_send("STOPPING=1");
	/* Detach, then drain both buffers: the last window gets every sample counted. */
	for (int i = 0; i < d->ncollectors; i++)
		d->collectors[i]->detach(d->collectors[i]);
	procs_consume(d->procs);
	emberd_drain(d);
	emberd_drain(d);
	err = emberd_close_window(d, now_sec());
cleanup:
	loop_release(&l);
	return err;
}
