/* SPDX-License-Identifier: BSD-2-Clause */
/* debugfile.c - find the separate debug file of an ELF: by build-id, then by debuglink */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "symbolize/debugfile.h"

/*
 * Open a candidate the way a root daemon must open a file any user may have put there: the
 * path opened without following a link at its end (O_PATH: a FIFO or a device is not opened
 * at all), then only a regular file of at most DEBUGFILE_MAX_BYTES, owned by root or by the
 * binary's owner, is reopened for reading. Returns a descriptor or a negative errno.
 */
static int debugfile_open_regular(const char *path, uid_t owner)
{
	char self[32];
	struct stat st;
	int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC), fd;

	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) || !S_ISREG(st.st_mode) || st.st_size > DEBUGFILE_MAX_BYTES ||
	    (st.st_uid != 0 && st.st_uid != owner)) {
		close(pfd);
		return -ENOENT;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	close(pfd);
	return fd < 0 ? -errno : fd;
}

/*
 * ROOT/.build-id/xx/rest.debug, kept only if its own build-id is the same, so a stale file never
 * names another build's addresses. Returns a descriptor or a negative errno.
 */
static int debugfile_by_build_id(const char *root, const struct elfsyms_info *info, uid_t owner)
{
	char path[PATH_MAX];
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	size_t len = 0;
	int fd, n;

	if (info->build_id_len < 2)
		return -ENOENT;
	len = (size_t)snprintf(path, sizeof(path), "%s/.build-id/%02x/", root, info->build_id[0]);
	for (size_t i = 1; i < info->build_id_len && len + 8 < sizeof(path); i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x", info->build_id[i]);
	if (len + 8 >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path + len, ".debug", 7);
	fd = debugfile_open_regular(path, owner);
	if (fd < 0)
		return fd;
	n = elfsyms_read_build_id(fd, id, sizeof(id));
	if (n != (int)info->build_id_len || memcmp(id, info->build_id, info->build_id_len)) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/*
 * The GNU debuglink checksum: CRC-32 (zlib's) of the whole file, read on the event loop, so
 * only files up to DEBUGFILE_CRC_MAX_BYTES are read (a larger one is not taken).
 */
static int debugfile_crc_ok(int fd, uint32_t want)
{
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	struct stat st;
	off_t off = 0;
	ssize_t n;

	if (fstat(fd, &st) || st.st_size > DEBUGFILE_CRC_MAX_BYTES)
		return 0;
	while (off <= DEBUGFILE_CRC_MAX_BYTES && (n = pread(fd, buf, sizeof(buf), off)) > 0) {
		crc = crc32(crc, buf, (uInt)n);
		off += n;
	}
	return n == 0 && (uint32_t)crc == want;
}

/*
 * The debuglink file, where GDB looks: beside the binary, in its .debug folder, then under ROOT at
 * the binary's path; the first whose CRC-32 matches. The binary itself is never taken. Returns a
 * descriptor or -ENOENT.
 */
static int debugfile_by_link(const char *root, const char *path, const struct elfsyms_info *info,
			     uid_t owner)
{
	/* DIR/LINK, DIR/.debug/LINK, ROOT/DIR/LINK */
	const char *const prefix[] = { "", "", root }, *const sub[] = { "", "/.debug", "" };
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) : 0;
	char cand[PATH_MAX];

	if (!slash)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		int fd, n;

		n = snprintf(cand, sizeof(cand), "%s%.*s%s/%s", prefix[i], dirlen, path, sub[i],
			     info->debuglink);
		if (n < 0 || (size_t)n >= sizeof(cand) || !strcmp(cand, path))
			continue;
		fd = debugfile_open_regular(cand, owner);
		if (fd < 0)
			continue;
		if (debugfile_crc_ok(fd, info->debuglink_crc))
			return fd;
		close(fd);
	}
	return -ENOENT;
}

int debugfile_open(const char *debug_root, const char *path, const struct elfsyms_info *info,
		   uid_t owner, enum debugfile_via *via)
{
	int fd = debugfile_by_build_id(debug_root, info, owner);

	if (fd >= 0) {
		*via = DEBUGFILE_BUILD_ID;
		return fd;
	}
	if (!info->debuglink || !path)
		return -ENOENT;
	fd = debugfile_by_link(debug_root, path, info, owner);
	if (fd >= 0)
		*via = DEBUGFILE_DEBUGLINK;
	return fd;
}
