/* SPDX-License-Identifier: BSD-2-Clause */
/* test_lines.c - the block line reader and the multi-file input */
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/input.h"
#include "lib/lines.h"
#include "lib/zfile.h"
#include "harness.h"
#include "textin.h"

TEST(lines_split_on_newline_and_keep_the_last_unterminated)
{
	static const char text[] = "one\n\ntwo\r\nthree";
	struct lines lr;
	FILE *in = textin_lines(&lr, text, sizeof(text) - 1);
	const char *l;
	size_t n;

	ASSERT_TRUE(in);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_TRUE(n == 3 && !memcmp(l, "one", 3));
	ASSERT_EQ_INT(lr.last_unterminated, 0);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_EQ_INT(n, 0);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_TRUE(n == 4 && !memcmp(l, "two\r", 4)); /* CR is the parsers' business */
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_TRUE(n == 5 && !memcmp(l, "three", 5));
	ASSERT_EQ_INT(lr.last_unterminated, 1);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 0);
	lines_release(&lr);
	fclose(in);
}

TEST(lines_empty_input_has_no_line)
{
	struct lines lr;
	FILE *in = textin_lines(&lr, "", 0);
	const char *l;
	size_t n;

	ASSERT_TRUE(in);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 0);
	lines_release(&lr);
	fclose(in);
}

/* Lines longer than the 1 MiB block grow the buffer; NUL bytes are data. */
TEST(lines_longer_than_a_block_and_nul_bytes)
{
	size_t big = (3u << 20) + 17;
	char *text = malloc(big + 8);
	struct lines lr;
	FILE *in;
	const char *l;
	size_t n;

	ASSERT_TRUE(text);
	memset(text, 'x', big);
	text[5] = '\0';
	memcpy(text + big, "\nab\0c\n", 6);
	in = textin_lines(&lr, text, big + 6);
	ASSERT_TRUE(in);
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_EQ_INT(n, big);
	ASSERT_TRUE(l[5] == '\0' && l[big - 1] == 'x');
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_TRUE(n == 4 && !memcmp(l, "ab\0c", 4));
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 0);
	lines_release(&lr);
	fclose(in);
	free(text);
}

TEST(lines_peek_shows_unread_input_without_consuming_it)
{
	static const char text[] = "a\nb\n";
	struct lines lr;
	FILE *in = textin_lines(&lr, text, 4);
	const char *buf, *l;
	size_t len, n;

	ASSERT_TRUE(in);
	ASSERT_EQ_INT(lines_peek(&lr, &buf, &len), 0);
	ASSERT_TRUE(len == 4 && !memcmp(buf, text, 4));
	ASSERT_EQ_INT(lines_next(&lr, &l, &n), 1);
	ASSERT_TRUE(n == 1 && l[0] == 'a');
	ASSERT_EQ_INT(lines_peek(&lr, &buf, &len), 0);
	ASSERT_TRUE(len == 2 && !memcmp(buf, "b\n", 2));
	lines_release(&lr);
	fclose(in);
}

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/ember-test-lines.XXXXXX");
	int fd = path ? mkstemp(path) : -1;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/* Files follow each other as one stream, as Perl's <>; a file without a final newline ends a line. */
TEST(input_reads_files_in_turn)
{
	char *paths[2] = { write_temp("a\nb"), write_temp("c\n") };
	struct input in;
	const char *bad = NULL, *l;
	size_t n;
	char got[16] = "";

	ASSERT_TRUE(paths[0] && paths[1]);
	ASSERT_EQ_INT(input_open(&in, paths, 2, &bad), 0);
	while (lines_next(&in.lines, &l, &n) > 0)
		strncat(got, l, n < 4 ? n : 4);
	ASSERT_EQ_STR(got, "abc");
	input_close(&in);
	unlink(paths[0]);
	unlink(paths[1]);
	free(paths[0]);
	free(paths[1]);
}

TEST(input_names_the_file_it_cannot_open)
{
	char missing[] = "/nonexistent/ember";
	char *paths[] = { missing };
	struct input in;
	const char *bad = NULL;

	ASSERT_EQ_INT(input_open(&in, paths, 1, &bad), -ENOENT);
	ASSERT_EQ_STR(bad, "/nonexistent/ember");
}

/* zfile reads gzip and plain files alike. */
TEST(zfile_reads_gzip_and_plain)
{
	char path[] = "/tmp/ember-test-zfile.XXXXXX";
	char buf[32] = "";
	int fd = mkstemp(path);
	gzFile gz = fd >= 0 ? gzdopen(fd, "wb") : NULL;
	FILE *f;

	ASSERT_TRUE(gz);
	gzputs(gz, "a;b 1\n");
	gzclose(gz);
	f = zfile_open(path);
	ASSERT_TRUE(f);
	ASSERT_TRUE(fgets(buf, sizeof(buf), f));
	ASSERT_EQ_STR(buf, "a;b 1\n");
	fclose(f);
	f = fopen(path, "w");
	fputs("plain\n", f);
	fclose(f);
	f = zfile_open(path);
	ASSERT_TRUE(f && fgets(buf, sizeof(buf), f));
	ASSERT_EQ_STR(buf, "plain\n");
	fclose(f);
	unlink(path);
	errno = 0;
	ASSERT_TRUE(!zfile_open("/nonexistent/ember") && errno == ENOENT);
}
