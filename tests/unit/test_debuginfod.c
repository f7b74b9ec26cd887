/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_debuginfod.c - a stripped fixture named through a real debuginfod server on
 * loopback serving its debug file; not named when debuginfod is off; a dead or
 * silent server given up on within the timeout, frames left as module+0xOFFSET.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

#include "symbolize/debuginfod.h"
#include "symbolize/symbolize.h"
#include "tests/unit/fixture_sym.h"
#include "tests/unit/harness.h"

#define SERVER_WAIT_SEC 30

static char tmp[] = "/tmp/ember-dinfod-XXXXXX";
static pid_t server_pid;
static int server_ready = -1; /* 1: serving, 0: failed to start, -1: not tried */
static int server_port, silent_fd = -1;

static void cleanup(void)
{
	char cmd[128];

	if (server_pid > 0) {
		kill(server_pid, SIGTERM);
		waitpid(server_pid, NULL, 0);
	}
	if (silent_fd >= 0)
		close(silent_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (tmp[sizeof(tmp) - 2] != 'X' && system(cmd))
		fprintf(stderr, "cannot remove %s\n", tmp);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A loopback TCP socket on a free port; listening (it never accepts) when listen_too. */
static int loopback_socket(int listen_too, int *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) || (listen_too && listen(fd, 8))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

/* The build-id of the fixture fx_buildid, as hex. */
static int fixture_build_id(char *hex, size_t len)
{
	char cmd[2200], path[2048];
	FILE *f;
	int ok;

	fx_path(path, sizeof(path), "fx_buildid");
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' | sed -n 's/.*Build ID: *//p'", path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	ok = fgets(hex, (int)len, f) != NULL;
	pclose(f);
	hex[strcspn(hex, "\n")] = '\0';
	return ok && strlen(hex) >= 16 ? 0 : -1;
}

/* Whether the server answers 200 for the debuginfo of build-id hex. */
static int server_has(const char *hex)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)server_port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char req[256], resp[64] = "";
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok = 0;

	if (fd < 0)
		return 0;
	snprintf(req, sizeof(req), "GET /buildid/%s/debuginfo HTTP/1.0\r\n\r\n", hex);
	if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    write(fd, req, strlen(req)) == (ssize_t)strlen(req) && read(fd, resp, 63) > 12)
		ok = !strncmp(resp + 8, " 200", 4);
	close(fd);
	return ok;
}

/* debuginfod on loopback, serving the fixtures' debug root, once it indexed the fixture. */
static int start_server(void)
{
	char dir[2048], db[128], port[16], hex[128];
	int fd;
	double end;

	if (server_ready >= 0)
		return server_ready ? 0 : -1;
	server_ready = 0;
	if (!mkdtemp(tmp) || fixture_build_id(hex, sizeof(hex)))
		return -1;
	atexit(cleanup);
	fd = loopback_socket(0, &server_port);
	if (fd < 0)
		return -1;
	close(fd);
	fx_path(dir, sizeof(dir), "debugroot");
	snprintf(db, sizeof(db), "%s/db.sqlite", tmp);
	snprintf(port, sizeof(port), "%d", server_port);
	server_pid = fork();
	if (server_pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		execlp("debuginfod", "debuginfod", "-p", port, "-d", db, "-F", dir, (char *)NULL);
		_exit(127);
	}
	if (server_pid < 0)
		return -1;
	for (end = now_sec() + SERVER_WAIT_SEC; now_sec() < end; usleep(100000))
		if (server_has(hex)) {
			server_ready = 1;
			return 0;
		}
	fprintf(stderr, "debuginfod did not serve %s within %d s (is it installed?)\n", hex,
		SERVER_WAIT_SEC);
	return -1;
}

struct lookup {
	char name[256];
	double sec;
	struct dinfod_stats st;
};

/* Name ember_fx_local in a fx_buildid process, with no local debug file. */
static void name_local(const char *urls, const char *cache, struct lookup *out)
{
	static char root[2048], cachedir[2048];
	struct symbolizer_opts o = { .demangle = 1, .refresh_ms = -1 };
	struct symbolizer_stats st;
	struct symbolizer *s;
	struct sbuf sb = { 0 };
	struct fx_proc fp;
	uint64_t addr;
	double t0;

	snprintf(root, sizeof(root), "%s/no-debug", tmp);
	snprintf(cachedir, sizeof(cachedir), "%s/%s", tmp, cache);
	o.debug_root = root;
	o.debuginfod_urls = urls;
	o.debuginfod_cache = cachedir;
	o.debuginfod_timeout_sec = 1;
	s = symbolizer_new(&o);
	ASSERT_TRUE(s);
	ASSERT_EQ_INT(fx_spawn(&fp, "fx_buildid"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	addr = fx_addr(&fp, "ember_fx_local");
	t0 = now_sec();
	ASSERT_TRUE(symbolizer_append_stack(s, (uint32_t)fp.pid, &addr, 1, 0, &sb) == 1);
	out->sec = now_sec() - t0;
	snprintf(out->name, sizeof(out->name), "%.*s", (int)sb.len - 1, sb.buf);
	symbolizer_get_stats(s, &st);
	out->st = st.dinfod;
	sbuf_release(&sb);
	fx_reap(&fp);
	symbolizer_free(s);
}

TEST(server_on_names_stripped_local_functions)
{
	char url[64];
	struct lookup l;

	ASSERT_EQ_INT(start_server(), 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server_port);
	name_local(url, "cache-on", &l);
	ASSERT_EQ_STR(l.name, "ember_fx_local");
	ASSERT_EQ_INT((int)l.st.found, 1);
}

TEST(off_by_default_leaves_offsets)
{
	struct lookup l;

	ASSERT_EQ_INT(start_server(), 0);
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:1",
	       1); /* the environment alone turns nothing on */
	name_local(NULL, "cache-off", &l);
	ASSERT_TRUE(!strncmp(l.name, "fx_buildid+0x", 13));
}

/* A server that refuses, then one that accepts and never answers: given up within the timeout. */
TEST(dead_or_silent_server_gives_up_within_timeout)
{
	char url[64];
	struct lookup l;
	int port, fd;

	ASSERT_EQ_INT(start_server(), 0);
	fd = loopback_socket(0, &port); /* bound, not listening: connections are refused */
	ASSERT_TRUE(fd >= 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	name_local(url, "cache-dead", &l);
	close(fd);
	ASSERT_TRUE(!strncmp(l.name, "fx_buildid+0x", 13));
	ASSERT_EQ_INT((int)l.st.failed, 1);
	ASSERT_TRUE(l.sec < 2.5);

	silent_fd = loopback_socket(1, &port);
	ASSERT_TRUE(silent_fd >= 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	name_local(url, "cache-silent", &l);
	fprintf(stderr, "silent server: gave up after %.2f s (timeout 1 s)\n", l.sec);
	ASSERT_TRUE(!strncmp(l.name, "fx_buildid+0x", 13));
	ASSERT_EQ_INT((int)l.st.failed, 1);
	ASSERT_TRUE(l.sec >= 0.9 && l.sec < 2.5);
}

/* A build-id the server lacks is asked once; after a failure nothing is asked for a while. */
TEST(misses_and_failures_are_not_asked_again)
{
	static const uint8_t id1[20] = { 0xee, 1 }, id2[20] = { 0xee, 2 };
	char url[64], cache[2048];
	struct dinfod_stats st;
	struct dinfod *d;
	int fd, port;

	ASSERT_EQ_INT(start_server(), 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server_port);
	snprintf(cache, sizeof(cache), "%s/cache-miss", tmp);
	d = dinfod_new(url, cache, 1);
	ASSERT_TRUE(d);
	ASSERT_EQ_INT(dinfod_find(d, id1, sizeof(id1)), -ENOENT);
	ASSERT_EQ_INT(dinfod_find(d, id1, sizeof(id1)), -ENOENT);
	dinfod_get_stats(d, &st);
	dinfod_free(d);
	ASSERT_EQ_INT((int)st.asked, 1);
	ASSERT_EQ_INT((int)st.missing, 1);
	ASSERT_EQ_INT((int)st.skipped, 1);

	fd = loopback_socket(0, &port); /* refused */
	ASSERT_TRUE(fd >= 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/cache-backoff", tmp);
	d = dinfod_new(url, cache, 1);
	ASSERT_TRUE(d);
	ASSERT_TRUE(dinfod_find(d, id1, sizeof(id1)) < 0);
	ASSERT_EQ_INT(dinfod_find(d, id2, sizeof(id2)), -ENOENT);
	dinfod_get_stats(d, &st);
	dinfod_free(d);
	close(fd);
	ASSERT_EQ_INT((int)st.asked, 1);
	ASSERT_EQ_INT((int)st.failed, 1);
	ASSERT_EQ_INT((int)st.skipped, 1);
}
