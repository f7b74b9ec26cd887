/* SPDX-License-Identifier: BSD-2-Clause */
/* debugfile.h - find the separate debug file of an ELF: by build-id, then by debuglink */
#ifndef EMBER_DEBUGFILE_H
#define EMBER_DEBUGFILE_H

#include "symbolize/elfsyms.h"

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
 * (checked against the CRC). Returns an fd and sets *via, or -ENOENT.
 */
int debugfile_open(const char *debug_root, const char *path, const struct elfsyms_info *info,
		   enum debugfile_via *via);

#endif
