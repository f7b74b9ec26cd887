/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay.c - run a fuzz target's saved crashers once each, without libFuzzer, so `make test`
 * (and its ASan/UBSan run) replays every input that once crashed a parser. Linked with one
 * fuzz_NAME.c as build/tests/test_replay_NAME; reads EMBER_SRC/tests/fuzz/crashers/NAME/.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read path whole; NULL with errno on failure. */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto cleanup;
	buf = malloc((size_t)n + 1); /* + 1: malloc(0) may return NULL */
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
		errno = errno ?: EIO;
		goto cleanup;
	}
	*size = (size_t)n;
cleanup:
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *src = getenv("EMBER_SRC"), *name = strrchr(argv[0], '_');
	char dir[4096], path[8192];
	struct dirent *de;
	int passed = 0, failed = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/crashers/%s", src ? src : ".", name + 1);
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		printf("0 passed, 1 failed\n");
		return 1;
	}
	while ((de = readdir(d))) {
		size_t size;
		uint8_t *data;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		data = slurp(path, &size);
		if (!data) {
			fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
			failed++;
			continue;
		}
		LLVMFuzzerTestOneInput(data, size); /* a regression aborts or trips a sanitizer */
		printf("ok: %s\n", de->d_name);
		free(data);
		passed++;
	}
	closedir(d);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
