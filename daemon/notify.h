/* SPDX-License-Identifier: BSD-2-Clause */
/* notify.h - tell systemd about readiness, status and liveness (sd_notify protocol) */
#ifndef EMBER_NOTIFY_H
#define EMBER_NOTIFY_H

#include <stdint.h>

/*
 * Send one message ("READY=1", "STATUS=...", "WATCHDOG=1", several joined by
 * newlines) when $NOTIFY_SOCKET is set; a no-op otherwise. Returns 0 or -errno.
 */
int notify_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The watchdog interval systemd asks for, in microseconds; 0 when none. */
uint64_t notify_watchdog_usec(void);

#endif
