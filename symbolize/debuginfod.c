/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * debuginfod.c - debug files fetched by build-id from debuginfod servers (optional, libdebuginfod)
 *
 * libdebuginfod brings curl and its TLS, Kerberos and LDAP stacks: about 32 more shared
 * libraries. A root daemon should not map them unless asked to, so the library is loaded
 * with dlopen() only when --debuginfod is set, as elfutils' own libdw does.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>

#include "symbolize/debuginfod.h"
#include "lib/htab.h"

/* Build-ids the servers did not have, remembered direct-mapped by hash. */
#define DINFOD_MISSES 4096
/* After a failed lookup, no server is asked for this long. */
#define DINFOD_BACKOFF_NS (60ull * 1000000000ull)

/*
 * A debug file larger than this is not used. (libdebuginfod's own cap, DEBUGINFOD_MAXSIZE,
 * leaks 8 KiB a lookup in elfutils 0.188: the download is bounded by the timeout instead.)
 */
#define DINFOD_MAX_BYTES (512LL << 20)

/* The library's entry points, found at the first dinfod_new(). */
static struct {
	void *handle;
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_set_user_data) *set_user_data;
	__typeof__(debuginfod_get_user_data) *get_user_data;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
} lib;

static int dinfod_load(void)
{
	if (lib.handle)
		return 0;
	lib.handle = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib.handle)
		return -ENOENT;
	lib.begin = dlsym(lib.handle, "debuginfod_begin");
	lib.end = dlsym(lib.handle, "debuginfod_end");
	lib.find_debuginfo = dlsym(lib.handle, "debuginfod_find_debuginfo");
	lib.set_user_data = dlsym(lib.handle, "debuginfod_set_user_data");
	lib.get_user_data = dlsym(lib.handle, "debuginfod_get_user_data");
	lib.set_progressfn = dlsym(lib.handle, "debuginfod_set_progressfn");
	if (!lib.begin || !lib.end || !lib.find_debuginfo || !lib.set_user_data ||
	    !lib.get_user_data || !lib.set_progressfn) {
		dlclose(lib.handle);
		lib.handle = NULL;
		return -ENOSYS;
	}
	return 0;
}

struct dinfod {
	debuginfod_client *client;
	uint64_t timeout_ns, deadline_ns, quiet_until_ns;
	uint64_t misses[DINFOD_MISSES];
	struct dinfod_stats st;
};

static uint64_t dinfod_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Called by libdebuginfod while a lookup is under way: nonzero abandons it. */
static int dinfod_progress(debuginfod_client *client, long done, long total)
{
	const struct dinfod *d = lib.get_user_data(client);

	(void)done;
	(void)total;
	return dinfod_now_ns() >= d->deadline_ns;
}

static int dinfod_setenv(const char *urls, const char *cache_dir, unsigned int timeout_sec)
{
	char sec[16];

	snprintf(sec, sizeof(sec), "%u", timeout_sec);
	if (setenv(DEBUGINFOD_URLS_ENV_VAR, urls, 1) ||
	    setenv(DEBUGINFOD_CACHE_PATH_ENV_VAR, cache_dir, 1) ||
	    setenv(DEBUGINFOD_TIMEOUT_ENV_VAR, sec, 1))
		return -errno;
	unsetenv(DEBUGINFOD_PROGRESS_ENV_VAR);
	return 0;
}

struct dinfod *dinfod_new(const char *urls, const char *cache_dir, unsigned int timeout_sec)
{
	struct dinfod *d;
	int err;

	if (!urls || !*urls || !cache_dir || !timeout_sec) {
		errno = EINVAL;
		return NULL;
	}
	err = dinfod_load();
	if (err) {
		errno = -err;
		return NULL;
	}
	if (mkdir(cache_dir, 0700) && errno != EEXIST)
		return NULL;
	err = dinfod_setenv(urls, cache_dir, timeout_sec);
	if (err) {
		errno = -err;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->client = lib.begin();
	if (!d->client) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	d->timeout_ns = (uint64_t)timeout_sec * 1000000000ull;
	lib.set_user_data(d->client, d);
	lib.set_progressfn(d->client, dinfod_progress);
	return d;
}

void dinfod_free(struct dinfod *d)
{
	if (!d)
		return;
	lib.end(d->client);
	free(d);
}

int dinfod_find(struct dinfod *d, const uint8_t *id, size_t len)
{
	uint64_t h = htab_hash_bytes(id, len), now = dinfod_now_ns();
	uint64_t *miss = &d->misses[h % DINFOD_MISSES];
	struct stat st;
	int fd;

	if (!len || *miss == h || now < d->quiet_until_ns) {
		d->st.skipped++;
		return -ENOENT;
	}
	d->st.asked++;
	d->deadline_ns = now + d->timeout_ns;
	fd = lib.find_debuginfo(d->client, id, (int)len, NULL);
	if (fd >= 0 && (fstat(fd, &st) || st.st_size > DINFOD_MAX_BYTES)) {
		close(fd);
		fd = -EFBIG;
	} else if (fd >= 0) {
		d->st.found++;
		return fd;
	}
	/* A lookup abandoned at the deadline may also say -ENOENT: it failed. Too big: a miss. */
	if ((fd == -ENOENT && dinfod_now_ns() < d->deadline_ns) || fd == -EFBIG) {
		d->st.missing++;
		*miss = h;
	} else {
		d->st.failed++;
		d->quiet_until_ns = dinfod_now_ns() + DINFOD_BACKOFF_NS;
	}
	return fd;
}

void dinfod_get_stats(const struct dinfod *d, struct dinfod_stats *st)
{
	*st = d->st;
}
