/* SPDX-License-Identifier: BSD-2-Clause */
/* test_control.c - the control socket and pid file are created safely in a shared folder */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/control.h"
#include "lib/sock.h"
#include "harness.h"

static void no_answer(void *arg, const char *req, size_t len, struct sbuf *out)
{
}

static char *fresh_dir(char *buf)
{
	strcpy(buf, "/tmp/ember-control-XXXXXX");
	ASSERT_TRUE(mkdtemp(buf));
	return buf;
}

static void remove_dir(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ASSERT_EQ_INT(system(cmd), 0);
}

TEST(socket_created_with_its_mode)
{
	char dir[64], path[128];
	mode_t old = umask(0);
	struct stat st;
	int fd;

	fresh_dir(dir);
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	fd = sock_listen_unix(path, 0600);
	umask(old);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(lstat(path, &st), 0);
	ASSERT_TRUE(S_ISSOCK(st.st_mode));
	ASSERT_EQ_INT(st.st_mode & 0777, 0600);
	ASSERT_EQ_INT(umask(old), old); /* the process's umask is back */
	close(fd);
	remove_dir(dir);
}

/* A symlink planted where the pid file's temporary goes is replaced, never written through. */
TEST(pidfile_never_follows_a_planted_link)
{
	char dir[64], victim[128], tmp[128], pidfile[128], buf[32] = "";
	struct control *c;
	struct stat st;
	FILE *f;
	int fd;

	fresh_dir(dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(tmp, sizeof(tmp), "%s/" CONTROL_PIDFILE ".tmp", dir);
	snprintf(pidfile, sizeof(pidfile), "%s/" CONTROL_PIDFILE, dir);
	fd = open(victim, O_WRONLY | O_CREAT, 0644);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(write(fd, "keep\n", 5), 5);
	close(fd);
	ASSERT_EQ_INT(symlink(victim, tmp), 0);
	c = control_new(dir, no_answer);
	ASSERT_TRUE(c != NULL);
	f = fopen(victim, "r");
	ASSERT_TRUE(f && fgets(buf, sizeof(buf), f));
	fclose(f);
	ASSERT_EQ_STR(buf, "keep\n");
	ASSERT_EQ_INT(lstat(pidfile, &st), 0);
	ASSERT_TRUE(S_ISREG(st.st_mode));
	control_free(c);
	remove_dir(dir);
}
