/* SPDX-License-Identifier: BSD-2-Clause */
/* file.c - read emberd.conf: [section] and key = value lines, every key known */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/config.h"

#define LINE_MAX_LEN 8192

struct file_parser {
	const char *path;
	int lineno;
	char section[64]; /* "" before the first [section] */
	int *seen;        /* line where each option was set, 0: not yet */
	char *err;
	size_t errlen;
};

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int fail(struct file_parser *p, const char *what)
{
	snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->lineno, what);
	return -EINVAL;
}

static int known_section(const char *name)
{
	for (size_t i = 0; i < config_noptions; i++)
		if (config_options[i].section && !strcmp(config_options[i].section, name))
			return 1;
	return 0;
}

static int parse_section(struct file_parser *p, char *line)
{
	char msg[CONFIG_ERR_LEN];
	char *end = strchr(line, ']');

	if (!end || end[1]) {
		snprintf(msg, sizeof(msg), "malformed section header '%.100s'", line);
		return fail(p, msg);
	}
	*end = '\0';
	line = trim(line + 1);
	if (!known_section(line)) {
		snprintf(msg, sizeof(msg), "unknown section '[%.100s]'", line);
		return fail(p, msg);
	}
	snprintf(p->section, sizeof(p->section), "%s", line);
	return 0;
}

static const struct config_option *find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		if (o->section && !strcmp(o->section, section) && !strcmp(o->key, key))
			return o;
	}
	return NULL;
}

/*
 * A "key = value" line of the current section, applied to c at once. A key set twice in the file is
 * an error naming the first line, not a silent override. Returns 0 or -EINVAL with "path:line:
 * reason" in p->err.
 */
static int parse_assignment(struct file_parser *p, struct config *c, char *line)
{
	char msg[CONFIG_ERR_LEN], what[160];
	const struct config_option *o;
	char *eq = strchr(line, '='), *key, *val;
	size_t idx;

	if (!eq) {
		snprintf(msg, sizeof(msg), "expected 'key = value' or '[section]', got '%.100s'",
			 line);
		return fail(p, msg);
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!p->section[0]) {
		snprintf(msg, sizeof(msg), "key '%.100s' before any [section]", key);
		return fail(p, msg);
	}
	o = find_key(p->section, key);
	if (!o) {
		snprintf(msg, sizeof(msg), "unknown key '%.100s' in section [%s]", key, p->section);
		return fail(p, msg);
	}
	idx = (size_t)(o - config_options);
	if (p->seen[idx]) {
		snprintf(msg, sizeof(msg), "'%s' is set twice (first on line %d)", key,
			 p->seen[idx]);
		return fail(p, msg);
	}
	p->seen[idx] = p->lineno;
	snprintf(what, sizeof(what), "'%s'", key);
	if (config_set(c, o, val, what, msg, sizeof(msg)))
		return fail(p, msg);
	return 0;
}

static int parse_line(struct file_parser *p, struct config *c, char *raw)
{
	size_t len = strlen(raw);
	char *line;

	if (len && raw[len - 1] == '\n')
		raw[--len] = '\0';
	else if (len == LINE_MAX_LEN - 1)
		return fail(p, "line too long");
	line = trim(raw);
	if (!*line || *line == '#' || *line == ';')
		return 0;
	if (*line == '[')
		return parse_section(p, line);
	return parse_assignment(p, c, line);
}

int config_load_file(struct config *c, const char *path, char *err, size_t errlen)
{
	struct file_parser p = { .path = path, .err = err, .errlen = errlen };
	char *line = NULL;
	FILE *f = NULL;
	int ret = 0;

	p.seen = calloc(config_noptions, sizeof(*p.seen));
	line = malloc(LINE_MAX_LEN);
	if (!p.seen || !line) {
		ret = -ENOMEM;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(ENOMEM));
		goto cleanup;
	}
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	while (fgets(line, LINE_MAX_LEN, f)) {
		p.lineno++;
		ret = parse_line(&p, c, line);
		if (ret)
			goto cleanup;
	}
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(EIO));
	}
cleanup:
	if (f)
		fclose(f);
	free(line);
	free(p.seen);
	return ret;
}
