/* SPDX-License-Identifier: BSD-2-Clause */
/* harness.h - a tiny unit-test harness: TEST(), ASSERT_*(), SKIP(), a summary line and exit code */
#ifndef EMBER_HARNESS_H
#define EMBER_HARNESS_H

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*harness_fn)(void);

struct harness_test {
	const char *name;
	harness_fn fn;
};

enum harness_result { HARNESS_PASSED, HARNESS_FAILED, HARNESS_SKIPPED };

static struct harness_test harness_tests[512];
static int harness_ntests;
static int harness_dropped; /* tests beyond the table: each counts as failed */
static jmp_buf harness_jmp;
static enum harness_result harness_now;

static inline void harness_register(const char *name, harness_fn fn)
{
	if (harness_ntests < (int)(sizeof(harness_tests) / sizeof(harness_tests[0])))
		harness_tests[harness_ntests++] = (struct harness_test){ name, fn };
	else
		harness_dropped++;
}

#define TEST(name)                                                                                 \
	static void name(void);                                                                    \
	__attribute__((constructor)) static void harness_reg_##name(void)                          \
	{                                                                                          \
		harness_register(#name, name);                                                     \
	}                                                                                          \
	static void name(void)

/* A failed assertion ends the current test through longjmp; the next test runs. */
static inline void harness_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#include <stdarg.h>
static inline void harness_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	harness_now = HARNESS_FAILED;
	longjmp(harness_jmp, 1);
}

/* Ends the current test as skipped where this machine cannot run it; under CI=true, which must
 * run every test, as failed. Free what the test holds first: nothing after SKIP() runs. */
static inline void harness_skip(const char *file, int line, const char *why)
	__attribute__((noreturn));

static inline void harness_skip(const char *file, int line, const char *why)
{
	const char *ci = getenv("CI");

	if (ci && !strcmp(ci, "true"))
		harness_fail(file, line, "cannot run here, and CI must run every test: %s", why);
	fprintf(stderr, "  %s:%d: skip: %s\n", file, line, why);
	harness_now = HARNESS_SKIPPED;
	longjmp(harness_jmp, 1);
}

#define SKIP(why) harness_skip(__FILE__, __LINE__, (why))

#define ASSERT_TRUE(c)                                                                             \
	do {                                                                                       \
		if (!(c))                                                                          \
			harness_fail(__FILE__, __LINE__, "expected true: %s", #c);                 \
	} while (0)

#define ASSERT_EQ_INT(a, b)                                                                        \
	do {                                                                                       \
		long long _a = (long long)(a), _b = (long long)(b);                                \
		if (_a != _b)                                                                      \
			harness_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, _a,     \
				     _b);                                                          \
	} while (0)

#define ASSERT_EQ_STR(a, b)                                                                        \
	do {                                                                                       \
		const char *_a = (a), *_b = (b);                                                   \
		if (!_a || !_b || strcmp(_a, _b) != 0)                                             \
			harness_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,     \
				     _a ? _a : "(null)", _b ? _b : "(null)");                      \
	} while (0)

#define ASSERT_NEAR(a, b, eps)                                                                     \
	do {                                                                                       \
		double _a = (a), _b = (b);                                                         \
		if (_a - _b > (eps) || _b - _a > (eps))                                            \
			harness_fail(__FILE__, __LINE__, "%s ~ %s: %g vs %g", #a, #b, _a, _b);     \
	} while (0)

static enum harness_result harness_run(harness_fn fn)
{
	harness_now = HARNESS_PASSED;
	if (setjmp(harness_jmp) == 0)
		fn();
	return harness_now;
}

/* Runs every test, or those whose name contains argv[1]; running none is a failure. */
int main(int argc, char **argv)
{
	int passed = 0, failed = harness_dropped, skipped = 0;

	if (harness_dropped)
		fprintf(stderr, "FAIL %d tests beyond the harness's table of %d\n", harness_dropped,
			harness_ntests);
	for (int i = 0; i < harness_ntests; i++) {
		if (argc > 1 && !strstr(harness_tests[i].name, argv[1]))
			continue;
		switch (harness_run(harness_tests[i].fn)) {
		case HARNESS_PASSED:
			passed++;
			break;
		case HARNESS_FAILED:
			fprintf(stderr, "FAIL %s\n", harness_tests[i].name);
			failed++;
			break;
		case HARNESS_SKIPPED:
			fprintf(stderr, "SKIP %s\n", harness_tests[i].name);
			skipped++;
			break;
		}
	}
	if (passed + failed + skipped == 0) {
		fprintf(stderr, "FAIL no test ran\n");
		failed++;
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}

#endif
