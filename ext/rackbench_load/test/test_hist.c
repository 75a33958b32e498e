/* test_hist.c - the log-linear histogram: exactness, precision, merge, percentiles. */
#include <stdlib.h>

#include "hist.h"
#include "test.h"

static void test_small_values_are_exact(void)
{
    hist_t *h = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    for (uint64_t v = 0; v < 2048; v++) {
        CHECK_EQ_U(hist_lowest_at(h, hist_index_of(h, v)), v);
        CHECK_EQ_U(hist_highest_at(h, hist_index_of(h, v)), v);
    }
    hist_free(h);
}

static void test_three_significant_digits_up_to_60s(void)
{
    hist_t *h = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    uint64_t v = 1;
    while (v <= HIST_LATENCY_HIGHEST_US) {
        size_t i = hist_index_of(h, v);
        CHECK(i < h->counts_len);
        uint64_t lo = hist_lowest_at(h, i), hi = hist_highest_at(h, i);
        CHECK(lo <= v && v <= hi);
        /* the bucket is no wider than a thousandth of the value */
        CHECK((double)(hi - lo) <= (double)v / 1000.0);
        v = v * 3 / 2 + 1;
    }
    CHECK(hist_index_of(h, HIST_LATENCY_HIGHEST_US) < h->counts_len);
    /* fixed memory: about 17k counters */
    CHECK(h->counts_len < 20000);
    hist_free(h);
}

static void test_percentiles_of_a_uniform_run(void)
{
    hist_t *h = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    for (uint64_t v = 1; v <= 100000; v++)
        hist_record(h, v);
    CHECK_EQ_U(h->total, 100000);
    CHECK_EQ_U(h->min, 1);
    CHECK_EQ_U(h->max, 100000);
    uint64_t p50 = hist_percentile(h, 50), p99 = hist_percentile(h, 99), p100 = hist_percentile(h, 100);
    CHECK(p50 >= 49950 && p50 <= 50050);
    CHECK(p99 >= 98900 && p99 <= 99100);
    CHECK_EQ_U(p100, 100000);
    CHECK(hist_mean(h) > 50000.4 && hist_mean(h) < 50000.6);
    CHECK(hist_stdev(h) > 28867 && hist_stdev(h) < 28868);
    hist_free(h);
}

static void test_merge_equals_recording_together(void)
{
    hist_t *a = hist_new(HIST_LATENCY_HIGHEST_US, 3), *b = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    hist_t *all = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    for (uint64_t v = 1; v < 5000000; v += 997) {
        hist_record((v & 1) ? a : b, v);
        hist_record(all, v);
    }
    CHECK(hist_merge(a, b) == 0);
    CHECK_EQ_U(a->total, all->total);
    CHECK_EQ_U(a->min, all->min);
    CHECK_EQ_U(a->max, all->max);
    for (double p = 1; p < 100; p += 7.5)
        CHECK_EQ_U(hist_percentile(a, p), hist_percentile(all, p));
    hist_t *coarse = hist_new(HIST_LATENCY_HIGHEST_US, 2);
    CHECK(hist_merge(a, coarse) == -1);
    hist_free(a);
    hist_free(b);
    hist_free(all);
    hist_free(coarse);
}

static void test_values_beyond_range_are_clamped_and_counted(void)
{
    hist_t *h = hist_new(1000000, 3);
    hist_record(h, 5000000);
    CHECK_EQ_U(h->total, 1);
    CHECK_EQ_U(h->saturated, 1);
    CHECK_EQ_U(h->max, 1000000);
    CHECK_EQ_U(hist_percentile(h, 99), 1000000);
    hist_free(h);
}

static void test_empty_and_bucket_iteration(void)
{
    hist_t *h = hist_new(HIST_LATENCY_HIGHEST_US, 3);
    CHECK_EQ_U(hist_percentile(h, 99), 0);
    CHECK(hist_mean(h) == 0);
    hist_record(h, 10);
    hist_record(h, 10);
    hist_record(h, 123456);
    size_t it = 0;
    uint64_t value, count, buckets = 0, sum = 0;
    while (hist_next_bucket(h, &it, &value, &count)) {
        buckets++;
        sum += count;
    }
    CHECK_EQ_U(buckets, 2);
    CHECK_EQ_U(sum, 3);
    hist_reset(h);
    CHECK_EQ_U(h->total, 0);
    CHECK(hist_new(1, 3) == NULL);
    CHECK(hist_new(1000, 9) == NULL);
    hist_free(h);
}

int main(void)
{
    test_small_values_are_exact();
    test_three_significant_digits_up_to_60s();
    test_percentiles_of_a_uniform_run();
    test_merge_equals_recording_together();
    test_values_beyond_range_are_clamped_and_counted();
    test_empty_and_bucket_iteration();
    return test_summary("hist");
}
