/* SPDX-License-Identifier: BSD-2-Clause */
/* control.h - emberd's control socket (snapshot, status) and pid file, and their client */
#ifndef EMBER_CONTROL_H
#define EMBER_CONTROL_H

struct emberd;
struct control;

#define CONTROL_SOCKET "emberd.sock"
#define CONTROL_PIDFILE "emberd.pid"

/*
 * Listen on RUN_DIR/emberd.sock and write RUN_DIR/emberd.pid. NULL (logged, the
 * daemon goes on without) when the folder cannot be used or another emberd answers there.
 */
struct control *control_new(const char *run_dir);
void control_free(struct control *c);
/*
 * The server answering clients ("snapshot" writes one and lists its files, "status"
 * reports); its events get the emberd.
 */
struct sockserv *control_server(const struct control *c);

/* `ember snapshot` and `ember status` */
int control_main(int argc, char **argv);

#endif
