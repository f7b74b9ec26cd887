/* SPDX-License-Identifier: BSD-2-Clause */
/* archive.c - write a window's profiles and metadata atomically (temporary name, fsync, rename) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "collapse/sbuf.h"
#include "daemon/archive.h"
#include "render/flamegraph.h"

int archive_mkdirs(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0750) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0750) && errno != EEXIST)
		return -errno;
	return 0;
}

/* A file that appears under its name only once complete. */
struct atomic_file {
	char tmp[PATH_MAX], dst[PATH_MAX];
	int fd;
};

static int atomic_open(struct atomic_file *af, const char *dir, const char *name)
{
	if ((size_t)snprintf(af->dst, sizeof(af->dst), "%s/%s", dir, name) >= sizeof(af->dst) ||
	    (size_t)snprintf(af->tmp, sizeof(af->tmp), "%s/.%s.XXXXXX", dir, name) >=
		    sizeof(af->tmp))
		return -ENAMETOOLONG;
	af->fd = mkostemp(af->tmp, O_CLOEXEC);
	if (af->fd < 0)
		return -errno;
	fchmod(af->fd, 0640);
	return 0;
}

/* Make the file durable and visible; on error the temporary is removed. */
static int atomic_commit(struct atomic_file *af, int err)
{
	if (!err && fsync(af->fd))
		err = -errno;
	if (close(af->fd) && !err)
		err = -errno;
	if (!err && rename(af->tmp, af->dst))
		err = -errno;
	if (err)
		unlink(af->tmp);
	return err;
}

static int gz_write_profile(int fd, struct folded *f)
{
	const struct folded_entry *e = folded_sorted(f);
	struct sbuf sb = SBUF_INIT;
	gzFile gz;
	int dupfd, err = 0;

	if (!e)
		return -ENOMEM;
	dupfd = dup(fd);
	if (dupfd < 0)
		return -errno;
	gz = gzdopen(dupfd, "wb6");
	if (!gz) {
		close(dupfd);
		return -ENOMEM;
	}
	for (size_t i = 0; i < folded_count(f) && !err; i++) {
		sbuf_setlen(&sb, 0);
		err = sbuf_add(&sb, e[i].stack, e[i].len);
		if (!err)
			err = sbuf_addf(&sb, " %" PRIu64 "\n", e[i].weight);
		if (!err && gzwrite(gz, sb.buf, sb.len) != (int)sb.len)
			err = -EIO;
	}
	if (gzclose(gz) != Z_OK && !err)
		err = errno ? -errno : -EIO;
	sbuf_release(&sb);
	return err;
}

static int write_profile(const char *dir, const char *stem, const char *kind, struct folded *f)
{
	struct atomic_file af;
	char name[NAME_MAX];
	int err;

	snprintf(name, sizeof(name), "%s.%s.folded.gz", stem, kind);
	err = atomic_open(&af, dir, name);
	if (err)
		return err;
	return atomic_commit(&af, gz_write_profile(af.fd, f));
}

/* The kind's flame graph beside its folded file, titled with kind, host and window. */
static int write_svg(const char *dir, const char *stem, const char *kind, struct folded *f,
		     time_t start, time_t end)
{
	char name[NAME_MAX], title[NAME_MAX + 128], host[256] = "", from[32], to[32];
	struct atomic_file af;
	struct fg_opts o;
	struct tm tm;
	FILE *out;
	int err, fd;

	fg_opts_init(&o);
	fg_opts_for_kind(&o, kind);
	gethostname(host, sizeof(host) - 1);
	strftime(from, sizeof(from), "%Y-%m-%d %H:%M:%S", localtime_r(&start, &tm));
	strftime(to, sizeof(to), "%H:%M:%S", localtime_r(&end, &tm));
	snprintf(title, sizeof(title), "%s on %s, %s to %s", kind, host, from, to);
	o.title = title;
	snprintf(name, sizeof(name), "%s.%s.svg", stem, kind);
	err = atomic_open(&af, dir, name);
	if (err)
		return err;
	fd = dup(af.fd);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return atomic_commit(&af, err);
	}
	err = flamegraph_write(f, &o, out);
	if (err == -ENODATA) /* weights all zero: the SVG says so */
		err = 0;
	if (fclose(out) && !err)
		err = -EIO;
	return atomic_commit(&af, err);
}

static int write_meta(const struct config *cfg, const char *dir, const char *stem,
		      const struct window *w, time_t end)
{
	struct sbuf sb = SBUF_INIT;
	struct atomic_file af;
	char name[NAME_MAX], host[256] = "";
	struct utsname u;
	int err;

	gethostname(host, sizeof(host) - 1);
	uname(&u);
	sbuf_addf(&sb, "{\n  \"host\": \"%s\",\n  \"kernel\": \"%s\",\n", host, u.release);
	sbuf_addf(&sb, "  \"start\": %lld,\n  \"end\": %lld,\n  \"frequency_hz\": %u,\n",
		  (long long)w->start, (long long)end, cfg->freq);
	sbuf_addstr(&sb, "  \"profiles\": {");
	for (int k = 0, first = 1; k < KIND_MAX; k++) {
		const struct window_stats *st = &w->stats[k];

		if (!folded_count(w->profiles[k]) && !st->samples && !st->lost)
			continue;
		sbuf_addf(&sb,
			  "%s\n    \"%s\": { \"samples\": %" PRIu64 ", \"lost\": %" PRIu64
			  ", \"stacks\": %zu, \"weight\": %" PRIu64 ", \"frames\": %" PRIu64
			  ", \"named\": %" PRIu64 " }",
			  first ? "" : ",", profile_kind_names[k], st->samples, st->lost,
			  folded_count(w->profiles[k]), folded_total(w->profiles[k]), st->frames,
			  st->named);
		first = 0;
	}
	err = sbuf_addstr(&sb, "\n  }\n}\n");
	snprintf(name, sizeof(name), "%s.meta.json", stem);
	if (!err)
		err = atomic_open(&af, dir, name);
	if (!err) {
		if (write(af.fd, sb.buf, sb.len) != (ssize_t)sb.len)
			err = errno ? -errno : -EIO;
		err = atomic_commit(&af, err);
	}
	sbuf_release(&sb);
	return err;
}

int archive_write(const struct config *cfg, const struct window *w, time_t end, int snapshot)
{
	char dir[PATH_MAX], sub[32], stem[32];
	time_t t = snapshot ? end : w->start;
	struct tm tm;
	int err, written = 0;

	localtime_r(&t, &tm);
	if (snapshot) {
		strcpy(sub, "snapshots");
		strftime(stem, sizeof(stem), "%Y-%m-%dT%H%M%S", &tm);
	} else {
		strftime(sub, sizeof(sub), "%Y-%m-%d", &tm);
		strftime(stem, sizeof(stem), cfg->window_sec % 60 ? "%H%M%S" : "%H%M", &tm);
	}
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", cfg->output_dir, sub) >= sizeof(dir))
		return -ENAMETOOLONG;
	err = archive_mkdirs(dir);
	if (err)
		return err;
	for (int k = 0; k < KIND_MAX; k++) {
		if (!folded_count(w->profiles[k]))
			continue;
		err = write_profile(dir, stem, profile_kind_names[k], w->profiles[k]);
		if (!err)
			err = write_svg(dir, stem, profile_kind_names[k], w->profiles[k], w->start, end);
		if (err)
			return err;
		written++;
	}
	if (written)
		err = write_meta(cfg, dir, stem, w, end);
	return err ? err : written;
}
