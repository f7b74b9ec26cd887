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

static int debugfile_open_regular(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

static int debugfile_by_build_id(const char *root, const struct elfsyms_info *info)
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
	fd = debugfile_open_regular(path);
	if (fd < 0)
		return fd;
	n = elfsyms_read_build_id(fd, id, sizeof(id));
	if (n != (int)info->build_id_len || memcmp(id, info->build_id, info->build_id_len)) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/* The GNU debuglink checksum: CRC-32 (zlib's) of the whole file. */
static int debugfile_crc_ok(int fd, uint32_t want)
{
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		crc = crc32(crc, buf, (uInt)n);
		off += n;
	}
	return n == 0 && (uint32_t)crc == want;
}

static int debugfile_by_link(const char *root, const char *path, const struct elfsyms_info *info)
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
		fd = debugfile_open_regular(cand);
		if (fd < 0)
			continue;
		if (debugfile_crc_ok(fd, info->debuglink_crc))
			return fd;
		close(fd);
	}
	return -ENOENT;
}

int debugfile_open(const char *debug_root, const char *path, const struct elfsyms_info *info,
		   enum debugfile_via *via)
{
	int fd = debugfile_by_build_id(debug_root, info);

	if (fd >= 0) {
		*via = DEBUGFILE_BUILD_ID;
		return fd;
	}
	if (!info->debuglink || !path)
		return -ENOENT;
	fd = debugfile_by_link(debug_root, path, info);
	if (fd >= 0)
		*via = DEBUGFILE_DEBUGLINK;
	return fd;
}
