/* SPDX-License-Identifier: BSD-2-Clause */
/* procmaps.h - the executable mappings of a process and the files behind them */
#ifndef EMBER_PROCMAPS_H
#define EMBER_PROCMAPS_H

#include <stdint.h>
#include <sys/types.h>

enum procmap_kind {
	PROCMAP_FILE,  /* a file: path is set */
	PROCMAP_VDSO,  /* [vdso] */
	PROCMAP_ANON,  /* anonymous executable memory (JIT) */
	PROCMAP_OTHER, /* [vsyscall] and other named kernel mappings */
};

struct procmap {
	uint64_t start, end, pgoff;
	dev_t dev;
	uint64_t ino;
	enum procmap_kind kind;
	int deleted; /* the file was unlinked or replaced */
	char *path;  /* as /proc/PID/maps shows it, without " (deleted)"; NULL if anonymous */
};

/*
 * Read the executable mappings of pid from /proc/PID/maps, sorted by address.
 * Returns their count (*out set, free with procmaps_free) or -errno.
 */
int procmaps_read(uint32_t pid, struct procmap **out);
/* Parse the text of a maps file (exposed for tests and the fuzzer). Same returns. */
int procmaps_parse(const char *text, size_t len, struct procmap **out);
void procmaps_free(struct procmap *maps, int n);

/*
 * Open the file behind a mapping of a live process: /proc/PID/map_files/ (even
 * if deleted), else the path inside /proc/PID/root without leaving that root,
 * checked against the mapping's device and inode. Returns an fd or -errno.
 */
int procmaps_open(uint32_t pid, const struct procmap *m);

#endif
