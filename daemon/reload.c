/* SPDX-License-Identifier: BSD-2-Clause */
/* reload.c - SIGHUP: re-read the configuration, restart only what changed, lose nothing */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/archive.h"
#include "daemon/emberd.h"
#include "lib/log.h"

static char old_val[16384], new_val[16384];

/* Options a reload cannot apply keep their running value, with a warning. */
static void keep_unreloadable(const struct config *old, struct config *next)
{
	char err[CONFIG_ERR_LEN];

	for (size_t i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		if (!(o->restart & CONFIG_RESTART_DAEMON) || !o->key)
			continue;
		config_format(old, o, old_val, sizeof(old_val));
		config_format(next, o, new_val, sizeof(new_val));
		if (!strcmp(old_val, new_val))
			continue;
		log_warn("[%s] %s takes effect when emberd restarts; keeping '%s', ignoring",
			 o->section, o->key, old_val);
		config_set(next, o, old_val, o->key, err, sizeof(err));
	}
}

/* One line naming what changed, e.g. "[oncpu] frequency 49 -> 99". */
static void log_changes(const struct config *old, const struct config *next)
{
	char line[1024];
	size_t used = 0;

	line[0] = '\0';
	for (size_t i = 0; i < config_noptions && used < sizeof(line); i++) {
		const struct config_option *o = &config_options[i];

		if (!o->key)
			continue;
		config_format(old, o, old_val, sizeof(old_val));
		config_format(next, o, new_val, sizeof(new_val));
		if (strcmp(old_val, new_val))
			used += snprintf(line + used, sizeof(line) - used,
					 "%s[%s] %s %.64s -> %.64s", used ? ", " : "", o->section,
					 o->key, old_val, new_val);
	}
	log_info("configuration reloaded: %s", used ? line : "nothing changed");
}

static int check_output_dir(const char *dir)
{
	int err = archive_mkdirs(dir);

	if (!err && access(dir, W_OK | X_OK))
		err = -errno;
	if (err)
		log_err("cannot reload: cannot write to output directory '%s': %s; keeping the "
			"running configuration",
			dir, strerror(-err));
	return err;
}

int emberd_reload(struct emberd *d)
{
	struct config *next = malloc(sizeof(*next));
	char err[CONFIG_ERR_LEN];
	unsigned int restart, running = 0;
	int ret;

	if (!next)
		return -ENOMEM;
	ret = config_load(next, &d->cli, d->argc, d->argv, err, sizeof(err));
	if (ret) {
		log_err("cannot reload: %s; keeping the running configuration", err);
		goto cleanup;
	}
	if (strcmp(next->output_dir, d->cfg.output_dir)) {
		ret = check_output_dir(next->output_dir);
		if (ret)
			goto cleanup;
	}
	keep_unreloadable(&d->cfg, next);
	/* Everything counted so far belongs to the current window, under the old settings. */
	emberd_drain(d);
	/* Samples of another frequency weigh differently: they start a window of their own. */
	if (next->freq != d->cfg.freq && !window_empty(d->win)) {
		log_info("the sampling frequency changes: writing the current window now");
		if (emberd_close_window(d, time(NULL)) < 0)
			log_err("the window before the reload could not be written; it is counted");
	}
	restart = config_restart_mask(&d->cfg, next) | (d->cfg.collect ^ next->collect);
	emberd_stop_collectors(d, restart);
	log_changes(&d->cfg, next);
	d->cfg = *next;
	log_set_level(d->cfg.verbose ? LOG_LVL_DEBUG : LOG_LVL_INFO);
	for (int i = 0; i < d->ncollectors; i++)
		running |= d->kinds[i];
	emberd_start_collectors(d, d->cfg.collect & restart & ~running);
	if (!d->ncollectors)
		log_err("no collector is running after the reload");
cleanup:
	free(next);
	return ret;
}
