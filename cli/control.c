/* SPDX-License-Identifier: BSD-2-Clause */
/* control.c - `ember snapshot` and `ember status`: ask the running emberd over its socket */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "daemon/control.h"
#include "lib/sock.h"

#define CTL_TIMEOUT_MS 60000 /* a snapshot symbolizes and writes: allow time on a busy host */

static void usage(FILE *out, const char *cmd)
{
	fprintf(out,
		"usage: ember %s [--run-dir DIR]\n"
		"%s\n\n"
		"  --run-dir DIR  where emberd keeps its socket and pid file (default /run/ember,\n"
		"                 or $EMBER_RUN_DIR)\n",
		cmd,
		strcmp(cmd, "snapshot")
			? "Show what the running emberd collects and writes."
			: "Make the running emberd write a snapshot now; print the files written.");
}

/* Why nothing answers: no daemon at all, or one without a socket. */
static void explain_absence(const char *cmd, const char *run_dir, const char *sock, int err)
{
	char path[PATH_MAX];
	FILE *f;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/" CONTROL_PIDFILE, run_dir);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	if (pid > 0 && !kill(pid, 0))
		fprintf(stderr, "ember %s: emberd (pid %d) does not answer on '%s': %s\n", cmd, pid,
			sock, strerror(-err));
	else
		fprintf(stderr, "ember %s: no emberd running (no control socket at '%s')\n", cmd,
			sock);
}

/*
 * Send cmd as one line to emberd's control socket and print its reply, read until emberd closes the
 * connection (at most 1 MiB); a reply starting "error: " goes to stderr. Returns the exit status:
 * 0, or 1 when nothing answers or emberd reports an error.
 */
static int ask(const char *run_dir, const char *cmd)
{
	struct timeval tv = { CTL_TIMEOUT_MS / 1000, 0 };
	struct sbuf reply = SBUF_INIT;
	char sock[PATH_MAX];
	int fd, err;

	snprintf(sock, sizeof(sock), "%s/" CONTROL_SOCKET, run_dir);
	fd = sock_connect_unix(sock);
	if (fd < 0) {
		explain_absence(cmd, run_dir, sock, fd);
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	err = sock_write_all(fd, cmd, strlen(cmd));
	err = err ?: sock_write_all(fd, "\n", 1);
	err = err ?: sock_read(fd, &reply, 1 << 20, NULL);
	close(fd);
	if (err || !reply.len) {
		fprintf(stderr, "ember %s: emberd did not answer on '%s': %s\n", cmd, sock,
			err ? strerror(-err) : "connection closed");
		sbuf_release(&reply);
		return 1;
	}
	err = !strncmp(reply.buf, "error: ", 7);
	if (err)
		fprintf(stderr, "ember %s: %s", cmd, reply.buf + 7);
	else
		fputs(reply.buf, stdout);
	sbuf_release(&reply);
	return err;
}

int control_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run-dir", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *run_dir = getenv("EMBER_RUN_DIR");
	/* argv[0] is "ember snapshot" or "ember status": the command is its last word. */
	const char *cmd = strrchr(argv[0], ' ') ? strrchr(argv[0], ' ') + 1 : argv[0];
	int opt;

	if (!run_dir || !*run_dir)
		run_dir = "/run/ember";
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'r') {
			run_dir = optarg;
		} else if (opt == 'h') {
			usage(stdout, cmd);
			return 0;
		} else {
			usage(stderr, cmd);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ember %s: unexpected argument '%s'\n", cmd, argv[optind]);
		return 2;
	}
	return ask(run_dir, cmd);
}
