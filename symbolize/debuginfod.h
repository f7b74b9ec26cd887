/* SPDX-License-Identifier: BSD-2-Clause */
/* debuginfod.h - debug files fetched by build-id from debuginfod servers (optional, libdebuginfod) */
#ifndef EMBER_DEBUGINFOD_H
#define EMBER_DEBUGINFOD_H

#include <stddef.h>
#include <stdint.h>

struct dinfod;

struct dinfod_stats {
	uint64_t asked, found, missing, failed, skipped;
};

/*
 * A client of the servers in urls (space-separated, as DEBUGINFOD_URLS), caching
 * files under cache_dir (created), each lookup abandoned after timeout_sec.
 * libdebuginfod reads its settings from the environment, so this sets
 * DEBUGINFOD_URLS, _CACHE_PATH and _TIMEOUT for the whole process.
 * Returns NULL with errno set.
 */
struct dinfod *dinfod_new(const char *urls, const char *cache_dir, unsigned int timeout_sec);
void dinfod_free(struct dinfod *d);

/*
 * An fd of the debug file with this build-id, or -errno. A build-id the servers
 * did not have is not asked for again; after a failure (timeout, no connection)
 * no server is asked for a while, so a dead server costs one timeout per
 * back-off period, not one per file. The caller checks the file's build-id.
 */
int dinfod_find(struct dinfod *d, const uint8_t *id, size_t len);
void dinfod_get_stats(const struct dinfod *d, struct dinfod_stats *st);

#endif
