/* SPDX-License-Identifier: BSD-2-Clause */
/* control.h - emberd's control socket (snapshot, status) and pid file, and their client */
#ifndef EMBER_CONTROL_H
#define EMBER_CONTROL_H

#include "daemon/sockserv.h"

struct control;

#define CONTROL_SOCKET "emberd.sock"
#define CONTROL_PIDFILE "emberd.pid"

/*
 * Listen on RUN_DIR/emberd.sock and write RUN_DIR/emberd.pid. NULL (logged, the
 * daemon goes on without) when the folder cannot be used or another emberd answers there.
 */
struct control *control_new(const char *run_dir, sockserv_fn fn);
void control_free(struct control *c);
/* The server answering clients with fn (see answer_control()). */
struct sockserv *control_server(const struct control *c);

#endif
