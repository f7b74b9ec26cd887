/* SPDX-License-Identifier: BSD-2-Clause */
/* debugfile.h - find the separate debug file of an ELF: by build-id, then by debuglink */
#ifndef EMBER_DEBUGFILE_H
#define EMBER_DEBUGFILE_H

#include <sys/types.h>

#include "symbolize/elfsyms.h"

/* Larger candidates are not opened; debuglink ones are checksummed only up to the second. */
#define DEBUGFILE_MAX_BYTES (4LL << 30)
#define DEBUGFILE_CRC_MAX_BYTES (256LL << 20)

enum debugfile_via {
	DEBUGFILE_NONE,
	DEBUGFILE_BUILD_ID,
	DEBUGFILE_DEBUGLINK,
	DEBUGFILE_DEBUGINFOD, /* fetched from a debuginfod server */
};

/*
 * Open the debug file of the ELF described by info, whose path on the host is
 * path (for the debuglink directories). Candidates: ROOT/.build-id/xx/rest.debug
 * (checked against the build-id), then DIR/LINK, DIR/.debug/LINK, ROOT/DIR/LINK
 * (checked against the CRC). A candidate is taken only when it is a regular file reached
 * without a symlink at its end, owned by root or by owner (the binary's owner), within the
 * size bounds above. Returns an fd and sets *via, or -ENOENT.
 */
int debugfile_open(const char *debug_root, const char *path, const struct elfsyms_info *info,
		   uid_t owner, enum debugfile_via *via);

#endif
