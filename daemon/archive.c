/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive.c - write a window's profiles and metadata atomically (temporary name, fsync, rename)
 *
 * A window becomes files under OUTPUT/YYYY-MM-DD/ (a snapshot under OUTPUT/snapshots/):
 * for each non-empty profile kind a .folded.gz, a .pb.gz (pprof) and an .svg flame graph,
 * and one .meta.json. Readers (ember merge, a shipper, a person) must never see half a
 * window, and a crash or a full disk must never leave one behind. So each file is written
 * under a hidden temporary name, fsynced, and renamed into place, then the directory is
 * fsynced; the files committed so far form a transaction, and when any file fails (ENOSPC)
 * the ones already renamed are removed again: a window is on disk whole or not at all.
 * archdir.c cleans the temporaries a crash left.
 *
 * Names come from the window's start time (a snapshot's from its end); a second window
 * with the same stem (a clock set back) gets -2, -3... so nothing is ever overwritten.
 * meta.json is written last and says what the window holds: period, collectors, samples
 * and losses per kind, and how many frames were named.
 */
#include <dirent.h>
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

#include "lib/sbuf.h"
#include "daemon/archive.h"
#include "render/flamegraph.h"
#include "render/pprof.h"

/* Make a directory's entries durable: a renamed file survives a crash. */
static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/* mkdir, and when it creates the directory, make its entry durable in the parent. */
static int mkdir_durable(char *path)
{
	char *slash;
	int err;

	if (mkdir(path, 0750))
		return errno == EEXIST ? 0 : -errno;
	slash = strrchr(path, '/');
	if (!slash)
		return fsync_dir(".");
	*slash = '\0';
	err = fsync_dir(slash == path ? "/" : path);
	*slash = '/';
	return err;
}

int archive_mkdirs(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);
	int err;

	if (len == 0 || len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		err = mkdir_durable(path);
		if (err)
			return err;
		*p = '/';
	}
	return mkdir_durable(path);
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
	if (fchmod(af->fd, 0640)) {
		int err = -errno;

		close(af->fd);
		unlink(af->tmp);
		return err;
	}
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

/*
 * Write f's lines, sorted by stack, gzip-compressed to a dup of fd: gzclose() closes the dup, and
 * the caller still fsyncs and closes fd. Returns 0 or a negative errno (write errors such as ENOSPC
 * keep their errno).
 */
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
		errno = 0; /* a failed write leaves its errno (ENOSPC, EFBIG) */
		if (!err && gzwrite(gz, sb.buf, sb.len) != (int)sb.len)
			err = errno ? -errno : -EIO;
	}
	errno = 0;
	if (gzclose(gz) != Z_OK && !err)
		err = errno ? -errno : -EIO;
	sbuf_release(&sb);
	return err;
}

/* The files committed so far, so that a window that fails midway can be taken back whole. */
struct archive_txn {
	const struct config *cfg;
	const char *dir, *stem;
	char done[KIND_MAX * 3 + 1][PATH_MAX];
	int ndone;
	uint64_t bytes;
};

static int txn_commit(struct archive_txn *t, struct atomic_file *af, int err)
{
	struct stat st;

	err = atomic_commit(af, err);
	if (err)
		return err;
	if (!stat(af->dst, &st))
		t->bytes += (uint64_t)st.st_size;
	strcpy(t->done[t->ndone++], af->dst);
	return 0;
}

static void txn_rollback(struct archive_txn *t)
{
	while (t->ndone > 0)
		unlink(t->done[--t->ndone]);
}

static int write_folded(struct archive_txn *t, const char *kind, struct folded *f)
{
	struct atomic_file af;
	char name[NAME_MAX];
	int err;

	snprintf(name, sizeof(name), "%s.%s.folded.gz", t->stem, kind);
	err = atomic_open(&af, t->dir, name);
	if (err)
		return err;
	return txn_commit(t, &af, gz_write_profile(af.fd, f));
}

static int pprof_to_fd(int fd, struct folded *f, const struct pprof_opts *o)
{
	int dupfd = dup(fd), err;
	FILE *out;

	if (dupfd < 0)
		return -errno;
	out = fdopen(dupfd, "wb");
	if (!out) {
		close(dupfd);
		return -errno;
	}
	err = pprof_write(f, o, out);
	if (fclose(out) && !err)
		err = -errno;
	return err;
}

/* Kinds pprof has no sample type for (the hot/cold mix) get no .pb.gz. */
static int write_pprof(struct archive_txn *t, const char *kind, struct folded *f, time_t start,
		       time_t end)
{
	struct pprof_opts o;
	struct atomic_file af;
	char name[NAME_MAX];
	int err;

	if (t->cfg->no_pprof || pprof_opts_for_kind(&o, kind, t->cfg->freq))
		return 0;
	o.time_nanos = (int64_t)start * 1000000000;
	o.duration_nanos = (int64_t)(end - start) * 1000000000;
	snprintf(name, sizeof(name), "%s.%s.pb.gz", t->stem, kind);
	err = atomic_open(&af, t->dir, name);
	if (err)
		return err;
	return txn_commit(t, &af, pprof_to_fd(af.fd, f, &o));
}

/* The kind's flame graph beside its folded file, titled with kind, host and window. */
static int svg_to_fd(int fd, struct folded *f, const char *kind, time_t start, time_t end)
{
	char title[NAME_MAX + 128], host[256] = "", from[32], to[32];
	struct fg_opts o;
	struct tm tm;
	FILE *out;
	int err, dupfd = dup(fd);

	out = dupfd < 0 ? NULL : fdopen(dupfd, "w");
	if (!out) {
		err = -errno;
		if (dupfd >= 0)
			close(dupfd);
		return err;
	}
	fg_opts_init(&o);
	fg_opts_for_kind(&o, kind);
	gethostname(host, sizeof(host) - 1);
	strftime(from, sizeof(from), "%Y-%m-%d %H:%M:%S", localtime_r(&start, &tm));
	strftime(to, sizeof(to), "%H:%M:%S", localtime_r(&end, &tm));
	snprintf(title, sizeof(title), "%s on %s, %s to %s", kind, host, from, to);
	o.title = title;
	errno = 0;
	err = flamegraph_write(f, &o, out);
	if (err == -ENODATA) /* weights all zero: the SVG says so */
		err = 0;
	if (fclose(out) && !err)
		err = errno ? -errno : -EIO;
	return err;
}

static int write_svg(struct archive_txn *t, const char *kind, struct folded *f, time_t start,
		     time_t end)
{
	struct atomic_file af;
	char name[NAME_MAX];
	int err;

	if (t->cfg->no_svg)
		return 0;
	snprintf(name, sizeof(name), "%s.%s.svg", t->stem, kind);
	err = atomic_open(&af, t->dir, name);
	if (err)
		return err;
	return txn_commit(t, &af, svg_to_fd(af.fd, f, kind, start, end));
}

static void iso_time(char *buf, size_t size, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* host and kernel are written as JSON strings: only characters that need no escape. */
static void json_safe(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			*s = '_';
}

/*
 * The first fields of meta.json: host, kernel release, whether it is a snapshot, the span in epoch
 * seconds and UTC, frequency, collectors, and the share of frames named (1 when there were no
 * frames).
 */
static void meta_header(struct sbuf *sb, const struct config *cfg, const struct window *w,
			const struct archive_info *info)
{
	char host[256] = "", from[32], to[32];
	struct utsname u;

	gethostname(host, sizeof(host) - 1);
	json_safe(host);
	if (uname(&u))
		strcpy(u.release, "unknown");
	json_safe(u.release);
	iso_time(from, sizeof(from), w->start);
	iso_time(to, sizeof(to), info->end);
	sbuf_addf(sb, "{\n  \"host\": \"%s\",\n  \"kernel\": \"%s\",\n", host, u.release);
	sbuf_addf(sb, "  \"snapshot\": %s,\n", info->snapshot ? "true" : "false");
	sbuf_addf(sb, "  \"start\": %lld,\n  \"end\": %lld,\n", (long long)w->start,
		  (long long)info->end);
	sbuf_addf(sb, "  \"start_utc\": \"%s\",\n  \"end_utc\": \"%s\",\n", from, to);
	sbuf_addf(sb, "  \"frequency_hz\": %u,\n  \"collectors\": \"%s\",\n", cfg->freq,
		  info->collectors ? info->collectors : "");
	sbuf_addf(sb, "  \"frames\": %" PRIu64 ",\n  \"frames_named\": %" PRIu64 ",\n",
		  info->frames, info->named);
	sbuf_addf(sb, "  \"named_share\": %.4f,\n",
		  info->frames ? (double)info->named / (double)info->frames : 1.0);
}

/*
 * How whole the profile's user stacks are, where they were walked with unwind tables: walks,
 * those that reached the outermost frame (and their share), cut at the depth limit, with
 * frame-pointer steps, and taken before the process had tables. Then the profile's closing brace.
 */
static void meta_walks(struct sbuf *sb, const struct unwind_walks *u)
{
	uint64_t n = u->walked ? u->walked : u->complete + u->cut + u->no_table;

	if (n)
		sbuf_addf(sb,
			  ", \"user_stacks\": { \"walked\": %" PRIu64 ", \"complete\": %" PRIu64
			  ", \"complete_share\": %.4f, \"cut\": %" PRIu64 ", \"fp_steps\": %" PRIu64
			  ", \"before_tables\": %" PRIu64 " }",
			  n, u->complete, (double)u->complete / (double)n, u->cut, u->fp_steps,
			  u->no_table);
	sbuf_addstr(sb, " }");
}

/*
 * STEM.meta.json via a temporary committed into t: the header, then an entry per kind with stacks,
 * samples or losses. Returns 0 or -errno (-EIO on a short write).
 */
static int write_meta(struct archive_txn *t, const struct window *w,
		      const struct archive_info *info)
{
	struct sbuf sb = SBUF_INIT;
	struct atomic_file af;
	char name[NAME_MAX];
	int err;

	meta_header(&sb, t->cfg, w, info);
	sbuf_addstr(&sb, "  \"profiles\": {");
	for (int k = 0, first = 1; k < KIND_MAX; k++) {
		const struct window_stats *st = &w->stats[k];

		if (!folded_count(w->profiles[k]) && !st->samples && !st->lost)
			continue;
		sbuf_addf(&sb,
			  "%s\n    \"%s\": { \"samples\": %" PRIu64 ", \"lost\": %" PRIu64
			  ", \"stacks\": %zu, \"weight\": %" PRIu64 ", \"frames\": %" PRIu64
			  ", \"named\": %" PRIu64 ", \"lost_stacks\": %" PRIu64,
			  first ? "" : ",", profile_kind_names[k], st->samples, st->lost,
			  folded_count(w->profiles[k]), folded_total(w->profiles[k]), st->frames,
			  st->named, st->lost_stacks);
		meta_walks(&sb, &st->walks);
		first = 0;
	}
	err = sbuf_addstr(&sb, "\n  }\n}\n");
	snprintf(name, sizeof(name), "%s.meta.json", t->stem);
	if (!err)
		err = atomic_open(&af, t->dir, name);
	if (!err) {
		errno = 0;
		if (write(af.fd, sb.buf, sb.len) != (ssize_t)sb.len)
			err = errno ? -errno : -EIO;
		err = txn_commit(t, &af, err);
	}
	sbuf_release(&sb);
	return err;
}

/* Is any name in dir, hidden or not, "STEM." followed by more? */
static int stem_used(DIR *dh, const char *stem)
{
	size_t len = strlen(stem);
	struct dirent *e;

	rewinddir(dh);
	while ((e = readdir(dh))) {
		const char *n = e->d_name + (e->d_name[0] == '.');

		if (!strncmp(n, stem, len) && n[len] == '.')
			return 1;
	}
	return 0;
}

/* base, or base-2, base-3...: the first that no file of dir uses. Returns 0 or -errno. */
static int unique_stem(const char *dir, const char *base, char *out, size_t size)
{
	DIR *dh = opendir(dir);
	int err = -EEXIST;

	if (!dh)
		return -errno;
	for (int n = 1; n < 10000 && err; n++) {
		if (n == 1)
			snprintf(out, size, "%s", base);
		else
			snprintf(out, size, "%s-%d", base, n);
		if (!stem_used(dh, out))
			err = 0;
	}
	closedir(dh);
	return err;
}

static int archive_place(const struct config *cfg, const struct window *w,
			 const struct archive_info *info, char *dir, char *stem)
{
	char sub[32], base[32];
	time_t t = info->snapshot ? info->end : w->start;
	struct tm tm;
	int err;

	localtime_r(&t, &tm);
	if (info->snapshot) {
		strcpy(sub, "snapshots");
		strftime(base, sizeof(base), "%Y-%m-%dT%H%M%S", &tm);
	} else {
		strftime(sub, sizeof(sub), "%Y-%m-%d", &tm);
		strftime(base, sizeof(base), cfg->window_sec % 60 ? "%H%M%S" : "%H%M", &tm);
	}
	if ((size_t)snprintf(dir, PATH_MAX, "%s/%s", cfg->output_dir, sub) >= PATH_MAX)
		return -ENAMETOOLONG;
	err = archive_mkdirs(dir);
	if (!err)
		err = unique_stem(dir, base, stem, ARCHIVE_STEM_MAX);
	return err;
}

static int write_profiles(struct archive_txn *t, const struct window *w, time_t end)
{
	int err = 0, written = 0;

	for (int k = 0; k < KIND_MAX && !err; k++) {
		if (!folded_count(w->profiles[k]))
			continue;
		err = write_folded(t, profile_kind_names[k], w->profiles[k]);
		if (!err)
			err = write_svg(t, profile_kind_names[k], w->profiles[k], w->start, end);
		if (!err)
			err = write_pprof(t, profile_kind_names[k], w->profiles[k], w->start, end);
		written++;
	}
	return err ? err : written;
}

int archive_write(const struct config *cfg, const struct window *w, const struct archive_info *info,
		  struct archive_result *res)
{
	struct archive_txn t = { .cfg = cfg };
	char dir[PATH_MAX], stem[ARCHIVE_STEM_MAX];
	int n;

	if (window_empty(w))
		return 0;
	n = archive_place(cfg, w, info, dir, stem);
	if (n)
		return n;
	t.dir = dir;
	t.stem = stem;
	n = write_profiles(&t, w, info->end);
	if (n > 0) {
		int err = write_meta(&t, w, info) ?: fsync_dir(dir);

		if (err)
			n = err;
	}
	if (n < 0) {
		txn_rollback(&t);
		return n;
	}
	if (res && n > 0) {
		strcpy(res->dir, dir);
		strcpy(res->stem, stem);
		res->files = t.ndone;
		res->bytes = t.bytes;
	}
	return n;
}
