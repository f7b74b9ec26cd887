/* SPDX-License-Identifier: BSD-2-Clause */
/* fgattr.c - a frame's extra attributes from --nameattr, made safe */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/fgattr.h"
#include "render/xmlesc.h"

struct attrs {
	char *id, *class, *title, *href, *target, *g_extra, *a_extra;
};

/* A URL that runs code when followed: javascript:, vbscript:, data: (spaces and case ignored). */
static int unsafe_url(const char *url)
{
	static const char *const schemes[] = { "javascript:", "vbscript:", "data:" };
	char buf[16];
	size_t n = 0;

	for (; *url && n < sizeof(buf) - 1; url++)
		if ((unsigned char)*url > ' ')
			buf[n++] = (char)tolower((unsigned char)*url);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (!strncmp(buf, schemes[i], strlen(schemes[i])))
			return 1;
	return 0;
}

/*
 * An attribute name we let through: XML name characters without a namespace prefix (an
 * undeclared prefix makes the SVG ill-formed), no event handler, no link.
 */
static int safe_name(const char *name, size_t len)
{
	if (!len || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
			return 0;
	if (len >= 2 && !strncasecmp(name, "on", 2))
		return 0;
	if (len == 5 && !strncasecmp(name, "style", 5))
		return 0;
	return !(len >= 4 && !strncasecmp(name + len - 4, "href", 4));
}

/*
 * Add name="val" to the tag that starts at sb->buf[tag], unless the tag has that attribute
 * already (a repeated attribute makes the SVG ill-formed): the first one stays. Values are
 * escaped, so ' name="' inside the tag can only be an attribute.
 */
static int add_attr(struct sbuf *sb, size_t tag, const char *name, size_t nlen, const char *val,
		    size_t vlen)
{
	char key[72];

	if (nlen + 3 > sizeof(key))
		return 0;
	key[0] = ' ';
	memcpy(key + 1, name, nlen);
	memcpy(key + 1 + nlen, "=\"", 2);
	if (memmem(sb->buf + tag, sb->len - tag, key, nlen + 3))
		return 0;
	if (sbuf_addch(sb, ' ') || sbuf_add(sb, name, nlen) || sbuf_add(sb, "=\"", 2) ||
	    xml_escape(sb, val, vlen) || sbuf_addch(sb, '"'))
		return -ENOMEM;
	return 0;
}

/* name="value" or name=value pairs separated by spaces, as flamegraph.pl's g_extra. */
static int add_extra(struct sbuf *sb, size_t tag, const char *s)
{
	while (*s) {
		const char *name, *eq, *val;
		size_t vlen;

		while (*s == ' ')
			s++;
		name = s;
		eq = strchr(s, '=');
		if (!*s || !eq)
			break;
		val = eq + 1;
		if (*val == '"') {
			const char *q = strchr(++val, '"');

			vlen = q ? (size_t)(q - val) : strlen(val);
			s = val + vlen + (q != NULL);
		} else {
			vlen = strcspn(val, " ");
			s = val + vlen;
		}
		if (safe_name(name, (size_t)(eq - name)) &&
		    add_attr(sb, tag, name, (size_t)(eq - name), val, vlen))
			return -ENOMEM;
	}
	return 0;
}

static void parse(char *s, struct attrs *a)
{
	for (char *tok = strtok(s, "\t"); tok; tok = strtok(NULL, "\t")) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(tok, "id"))
			a->id = eq + 1;
		else if (!strcmp(tok, "class"))
			a->class = eq + 1;
		else if (!strcmp(tok, "title"))
			a->title = eq + 1;
		else if (!strcmp(tok, "href"))
			a->href = eq + 1;
		else if (!strcmp(tok, "target"))
			a->target = eq + 1;
		else if (!strcmp(tok, "g_extra"))
			a->g_extra = eq + 1;
		else if (!strcmp(tok, "a_extra"))
			a->a_extra = eq + 1;
	}
}

static int open_tag(struct sbuf *sb, const struct attrs *a, int link)
{
	size_t tag = sb->len;
	int err = sbuf_addstr(sb, link ? "<a" : "<g");

	if (!err && link) {
		err = add_attr(sb, tag, "xlink:href", 10, a->href, strlen(a->href));
		if (!err)
			err = add_attr(sb, tag, "target", 6, a->target ? a->target : "_top",
				       strlen(a->target ? a->target : "_top"));
		if (!err && a->a_extra)
			err = add_extra(sb, tag, a->a_extra);
	}
	if (!err && a->id)
		err = add_attr(sb, tag, "id", 2, a->id, strlen(a->id));
	if (!err && a->class)
		err = add_attr(sb, tag, "class", 5, a->class, strlen(a->class));
	if (!err && a->g_extra)
		err = add_extra(sb, tag, a->g_extra);
	return err ? err : sbuf_addch(sb, '>');
}

int fg_attr_open(struct sbuf *sb, const char *attrs, struct fg_attr_out *out)
{
	struct attrs a = { 0 };
	char *copy = strdup(attrs);
	int link, err;

	if (!copy)
		return -ENOMEM;
	parse(copy, &a);
	link = a.href && *a.href && !unsafe_url(a.href);
	err = open_tag(sb, &a, link);
	out->tag = link ? "</a>" : "</g>";
	out->title = NULL;
	if (!err && a.title && !(out->title = strdup(a.title)))
		err = -ENOMEM;
	free(copy);
	return err;
}

void fg_attr_release(struct fg_attr_out *out)
{
	free(out->title);
	out->title = NULL;
}
