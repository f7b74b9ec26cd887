/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c - emberd: options, preflight checks, lifecycle */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/archive.h"
#include "daemon/emberd.h"
#include "daemon/log.h"

/* Fail early, with one line, on what would fail later. Returns 0 or -errno. */
static int preflight(const struct config *cfg)
{
	int err;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		log_err("kernel BTF not available at '/sys/kernel/btf/vmlinux': %s "
			"(a kernel built with CONFIG_DEBUG_INFO_BTF is needed)",
			strerror(errno));
		return -ENOTSUP;
	}
	err = archive_mkdirs(cfg->output_dir);
	if (!err && access(cfg->output_dir, W_OK | X_OK))
		err = -errno;
	if (err) {
		log_err("cannot write to output directory '%s': %s", cfg->output_dir,
			strerror(-err));
		return err;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct emberd d;
	int err;

	config_init(&d.cfg);
	err = config_parse_args(&d.cfg, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	log_set_level(d.cfg.verbose ? LOG_LVL_DEBUG : LOG_LVL_INFO);
	log_setup_libbpf();
	err = preflight(&d.cfg);
	if (err)
		return 1;
	err = emberd_start(&d);
	if (!err) {
		log_info("writing %u-second windows to '%s'", d.cfg.window_sec, d.cfg.output_dir);
		err = emberd_loop(&d);
	}
	emberd_stop(&d);
	return err ? 1 : 0;
}
