/* test_censor.c - the window's requests: percentiles over all of them, bounds, exact merging across threads. */
#include "censor.h"
#include "test.h"

static void test_without_censored_requests_percentiles_are_the_completed_ones(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    for (uint64_t v = 1; v <= 1000; v++) {
        censor_issue(&c);
        censor_complete(&c, v);
    }
    for (double p = 1; p <= 100; p += 9) {
        int bound = -1;
        CHECK_EQ_U(censor_percentile(&c, p, &bound), hist_percentile(c.latency_us, p));
        CHECK(bound == 0);
    }
    CHECK_EQ_U(censor_total(&c), 0);
    CHECK_EQ_U(censor_requests(&c), 1000);
    CHECK_EQ_U(censor_failed(&c), 0);
    censor_free(&c);
}

/* 100 completed at 50 ms, 300 censored at 1..3 s (a server at a quarter of the offered rate). */
static void test_a_rank_among_censored_requests_is_a_lower_bound(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    for (int i = 0; i < 100; i++)
        censor_complete(&c, 50000);
    for (int i = 0; i < 100; i++) {
        censor_record(&c, CENSOR_IN_FLIGHT, 1000000);
        censor_record(&c, CENSOR_UNSENT, 2000000);
        censor_record(&c, CENSOR_TIMEOUT, 3000000);
    }
    CHECK_EQ_U(censor_total(&c), 300);
    CHECK_EQ_U(c.count[CENSOR_UNSENT], 100);
    int bound;
    /* the first quarter of all requests completed: p25 is exact */
    uint64_t p25 = censor_percentile(&c, 25, &bound);
    CHECK(bound == 0);
    CHECK(p25 >= 50000 && p25 <= 50050);
    /* the median of all (the 200th of 400) falls among the censored: at least 1 s, a bound */
    uint64_t p50 = censor_percentile(&c, 50, &bound);
    CHECK(bound == 1);
    CHECK(p50 >= 1000000 && p50 <= 1001000);
    uint64_t p99 = censor_percentile(&c, 99, &bound);
    CHECK(bound == 1);
    CHECK(p99 >= 3000000 && p99 <= 3003000);
    /* the median of all exceeds the median of the completed */
    CHECK(p50 > hist_percentile(c.latency_us, 50));
    /* the maximum is a bound whenever anything is censored */
    censor_percentile(&c, 100, &bound);
    CHECK(bound == 1);
    censor_free(&c);
}

/* A young censored request (issued just before the stop) may yet be the
   slowest: every rank at or above its age is only a bound... */
static void test_a_young_censored_request_bounds_the_ranks_above_it(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    for (uint64_t v = 1; v <= 100; v++)
        censor_complete(&c, v * 10);
    censor_record(&c, CENSOR_IN_FLIGHT, 5);
    int bound;
    /* 101 requests: p50 is the 51st, 500 us, with only 50 completed at or below it */
    CHECK_EQ_U(censor_percentile(&c, 50, &bound), 500);
    CHECK(bound == 1);
    censor_percentile(&c, 90, &bound);
    CHECK(bound == 1);
    censor_free(&c);
}

/* ...unless enough completed latencies lie at or below the rank: then it is exact. */
static void test_enough_completed_at_a_rank_make_it_exact(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    for (int i = 0; i < 1000; i++)
        censor_complete(&c, 100);
    censor_record(&c, CENSOR_IN_FLIGHT, 50);
    int bound;
    CHECK_EQ_U(censor_percentile(&c, 50, &bound), 100);
    CHECK(bound == 0);
    CHECK_EQ_U(censor_percentile(&c, 99.9, &bound), 100);
    CHECK(bound == 0);
    censor_free(&c);
}

/* Issued, completed, censored: what is left failed. Unsent requests count among the window's, never issued. */
static void test_the_windows_requests_add_up(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    for (int i = 0; i < 10; i++)
        censor_issue(&c);
    for (int i = 0; i < 6; i++)
        censor_complete(&c, 1000);
    censor_record(&c, CENSOR_TIMEOUT, 2000000);
    censor_record(&c, CENSOR_IN_FLIGHT, 10);
    censor_record(&c, CENSOR_UNSENT, 10);
    CHECK_EQ_U(censor_requests(&c), 11);
    CHECK_EQ_U(censor_total(&c), 3);
    CHECK_EQ_U(censor_failed(&c), 2);
    censor_free(&c);
}

/* Two threads' requests merged equal one thread recording them all. */
static void test_merging_across_threads_keeps_counts_exact(void)
{
    censor_t a, b, all;
    CHECK(censor_init(&a) == 0 && censor_init(&b) == 0 && censor_init(&all) == 0);
    for (uint64_t i = 1; i <= 5000; i++) {
        int kind = (int)(i % CENSOR_KINDS);
        uint64_t age = i * 397 % 4000000, latency = i * 131 % 200000;
        censor_t *mine = (i & 1) ? &a : &b, *other = (i & 1) ? &b : &a;
        censor_issue(mine);
        censor_issue(&all);
        censor_record(mine, kind, age);
        censor_record(&all, kind, age);
        censor_complete(other, latency);
        censor_complete(&all, latency);
    }
    CHECK(censor_merge(&a, &b) == 0);
    for (int k = 0; k < CENSOR_KINDS; k++)
        CHECK_EQ_U(a.count[k], all.count[k]);
    CHECK_EQ_U(censor_total(&a), 5000);
    CHECK_EQ_U(a.issued, all.issued);
    CHECK_EQ_U(censor_requests(&a), censor_requests(&all));
    CHECK_EQ_U(a.age_us->total, all.age_us->total);
    CHECK_EQ_U(a.age_us->max, all.age_us->max);
    CHECK_EQ_U(a.latency_us->total, all.latency_us->total);
    int same = 1;
    for (double p = 1; p <= 100; p += 3.3) {
        int bound_merged, bound_all;
        same &= censor_percentile(&a, p, &bound_merged) == censor_percentile(&all, p, &bound_all);
        same &= bound_merged == bound_all;
    }
    CHECK(same);
    /* an empty thread merges as nothing */
    censor_t empty;
    CHECK(censor_init(&empty) == 0);
    CHECK(censor_merge(&a, &empty) == 0);
    CHECK_EQ_U(censor_total(&a), 5000);
    censor_free(&empty);
    censor_free(&a);
    censor_free(&b);
    censor_free(&all);
}

static void test_empty_and_names(void)
{
    censor_t c;
    CHECK(censor_init(&c) == 0);
    int bound = -1;
    CHECK_EQ_U(censor_percentile(&c, 99, &bound), 0);
    CHECK(bound == 0);
    CHECK(censor_kind_name(CENSOR_UNSENT)[0] == 'u');
    censor_free(&c);
}

int main(void)
{
    test_without_censored_requests_percentiles_are_the_completed_ones();
    test_a_rank_among_censored_requests_is_a_lower_bound();
    test_a_young_censored_request_bounds_the_ranks_above_it();
    test_enough_completed_at_a_rank_make_it_exact();
    test_the_windows_requests_add_up();
    test_merging_across_threads_keeps_counts_exact();
    test_empty_and_names();
    return test_summary("censor");
}
