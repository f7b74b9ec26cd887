/* SPDX-License-Identifier: BSD-2-Clause */
/* harness.h - a tiny unit-test harness: TEST(), ASSERT_*(), a summary line and exit code */
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

static struct harness_test harness_tests[512];
static int harness_ntests;
static jmp_buf harness_jmp;
static int harness_failed_now;

static inline void harness_register(const char *name, harness_fn fn)
{
	if (harness_ntests < (int)(sizeof(harness_tests) / sizeof(harness_tests[0])))
		harness_tests[harness_ntests++] = (struct harness_test){ name, fn };
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
	harness_failed_now = 1;
	longjmp(harness_jmp, 1);
}

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

/* Returns 1 when the test failed. */
static int harness_run(harness_fn fn)
{
	harness_failed_now = 0;
	if (setjmp(harness_jmp) == 0)
		fn();
	return harness_failed_now;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (int i = 0; i < harness_ntests; i++) {
		if (argc > 1 && !strstr(harness_tests[i].name, argv[1]))
			continue;
		if (harness_run(harness_tests[i].fn)) {
			fprintf(stderr, "FAIL %s\n", harness_tests[i].name);
			failed++;
		} else {
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif
