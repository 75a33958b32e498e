/*
 * test.h - the whole test framework: CHECK(cond) and a summary.
 *
 *     int main(void) { CHECK(1 + 1 == 2); return test_summary("my test"); }
 */
#ifndef RACKBENCH_TEST_H
#define RACKBENCH_TEST_H

#include <stdio.h>

static int test_checks;
static int test_failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        test_checks++;                                                           \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                     \
    do {                                                                                     \
        unsigned long long test_a = (unsigned long long)(a), test_b = (unsigned long long)(b); \
        test_checks++;                                                                       \
        if (test_a != test_b) {                                                              \
            test_failures++;                                                                 \
            fprintf(stderr, "%s:%d: %s == %s failed: %llu != %llu\n", __FILE__, __LINE__, #a, #b, \
                    test_a, test_b);                                                         \
        }                                                                                    \
    } while (0)

static inline int test_summary(const char *name)
{
    if (test_failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, test_failures, test_checks);
        return 1;
    }
    printf("%s: %d checks passed\n", name, test_checks);
    return 0;
}

#endif
