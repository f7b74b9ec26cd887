/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c - emberd: options, preflight checks, lifecycle */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "daemon/archdir.h"
#include "daemon/archive.h"
#include "daemon/emberd.h"
#include "lib/log.h"

/* Load the smallest program there is. Returns 0 or -errno (EPERM, ENOSYS...). */
static int probe_bpf(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns, 2, NULL);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Fail early, with one line, on what would fail later. Returns 0 or -errno. */
static int preflight(const struct config *cfg)
{
	struct stat st;
	int err;

	if (stat("/sys/kernel/btf/vmlinux", &st) || st.st_size == 0) {
		log_err("kernel BTF not available at '/sys/kernel/btf/vmlinux' "
			"(emberd needs a kernel built with CONFIG_DEBUG_INFO_BTF)");
		return -ENOTSUP;
	}
	err = probe_bpf();
	if (err) {
		log_err("cannot load BPF programs: %s (emberd needs root, or CAP_BPF and "
			"CAP_PERFMON, on a kernel with BPF)",
			strerror(-err));
		return err;
	}
	err = archive_mkdirs(cfg->output_dir);
	if (!err && access(cfg->output_dir, W_OK | X_OK))
		err = -errno;
	if (err) {
		log_err("cannot write to output directory '%s': %s", cfg->output_dir,
			strerror(-err));
		return err;
	}
	err = archdir_clean_temps(cfg->output_dir);
	if (err > 0)
		log_info("removed %d temporary file(s) of writes interrupted before", err);
	return 0;
}

/* Options from the command line and the file. Returns 0 to run, 1 to exit 0, 2 on bad usage. */
static int configure(struct emberd *d, int argc, char **argv)
{
	char err[CONFIG_ERR_LEN];

	d->argc = argc;
	d->argv = argv;
	if (config_scan_args(argc, argv, &d->cli, err, sizeof(err)))
		goto bad;
	if (d->cli.help) {
		config_usage(stdout);
		return 1;
	}
	if (d->cli.version) {
		printf("emberd %s\n", EMBER_VERSION);
		return 1;
	}
	if (config_load(&d->cfg, &d->cli, argc, argv, err, sizeof(err)))
		goto bad;
	if (d->cli.print)
		config_print(stdout, &d->cfg);
	else if (d->cli.check)
		printf("emberd: '%s' is valid\n", d->cli.file);
	return d->cli.print || d->cli.check;
bad:
	fprintf(stderr, "emberd: %s\n", err);
	return 2;
}

int main(int argc, char **argv)
{
	static struct emberd d;
	sigset_t signals;
	int err;

	if (emberd_block_signals(&signals))
		return 1;
	err = configure(&d, argc, argv);
	if (err)
		return err == 1 ? 0 : 2;
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
