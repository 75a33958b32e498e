/* test_series.c - per-interval counts and percentiles, merged across threads. */
#include "series.h"
#include "test.h"

int main(void)
{
    const uint64_t second = 1000000000ULL;
    series_t a, b;
    series_init(&a, second);
    series_init(&b, second);
    CHECK(series_record(&a, 0, 100) == 0);
    CHECK(series_record(&a, second - 1, 300) == 0);
    CHECK(series_record(&b, second / 2, 200) == 0);
    CHECK(series_error(&b, 3 * second + 1) == 0);
    CHECK_EQ_U(a.len, 1);
    CHECK_EQ_U(b.len, 4);
    CHECK(series_merge(&a, &b) == 0);
    CHECK_EQ_U(a.len, 4);
    CHECK_EQ_U(a.slots[0].requests, 3);
    CHECK_EQ_U(hist_percentile(a.slots[0].latency_us, 50), 200);
    CHECK_EQ_U(a.slots[0].latency_us->max, 300);
    CHECK(a.slots[1].latency_us == NULL && a.slots[1].requests == 0);
    CHECK_EQ_U(a.slots[3].errors, 1);
    CHECK(series_pad(&a, 10) == 0);
    CHECK_EQ_U(a.len, 10);
    series_t other;
    series_init(&other, second / 2);
    CHECK(series_merge(&a, &other) == -1);
    series_free(&a);
    series_free(&b);
    series_free(&other);
    return test_summary("series");
}
