/* test_schedule.c - open-loop send times (uniform and poisson) and the stall deadline. */
#include <math.h>
#include <stdlib.h>

#include "schedule.h"
#include "test.h"

#define MS 1000000ULL
#define S 1000000000ULL

static void test_uniform_slots_are_evenly_spaced_without_drift(void)
{
    /* 1000/s from t=0: slot k at k ms */
    CHECK_EQ_U(schedule_slot_ns(0, 1e6, 0), 0);
    CHECK_EQ_U(schedule_slot_ns(5 * S, 1e6, 250), 5 * S + 250 * MS);
    schedule_t s;
    schedule_init(&s, 5 * S, 1000.0, SCHEDULE_UNIFORM, 0);
    CHECK_EQ_U(schedule_next_ns(&s), 5 * S);
    for (int k = 0; k < 250; k++)
        schedule_advance(&s);
    CHECK_EQ_U(schedule_next_ns(&s), 5 * S + 250 * MS);
    /* a fractional interval (3000/s over 7 threads): the advanced schedule is the closed form */
    double rate = 3000.0 / 7.0;
    schedule_init(&s, 0, rate, SCHEDULE_UNIFORM, 0);
    for (int k = 0; k < 100000; k++)
        schedule_advance(&s);
    CHECK_EQ_U(schedule_next_ns(&s), schedule_slot_ns(0, 1e9 / rate, 100000));
}

/* Count the slots due in [from, to) of a fresh schedule. */
static uint64_t due_between(int arrivals, double rate, uint64_t seed, uint64_t from, uint64_t to)
{
    schedule_t s;
    schedule_init(&s, 0, rate, arrivals, seed);
    uint64_t n = 0;
    for (; schedule_next_ns(&s) < to; schedule_advance(&s))
        n += schedule_next_ns(&s) >= from;
    return n;
}

static void test_uniform_counts_exactly(void)
{
    /* a 1 s window after a 1 s warm-up holds slots 1000..1999; the end is exclusive, the start inclusive */
    CHECK_EQ_U(due_between(SCHEDULE_UNIFORM, 1000, 0, 1 * S, 2 * S), 1000);
    CHECK_EQ_U(due_between(SCHEDULE_UNIFORM, 1000, 0, 1 * S, 1 * S + 1), 1);
    CHECK_EQ_U(due_between(SCHEDULE_UNIFORM, 1000, 0, 1 * S + 1, 1 * S + 1 * MS), 0);
}

static int test_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * Poisson arrivals: gaps exponential with the mean 1/rate. Checked on 200,000
 * gaps of a fixed seed: the mean within 1 %, the coefficient of variation
 * (1 for an exponential) within 2 %, the share of gaps longer than the mean
 * e^-1 within 0.01, and the Kolmogorov-Smirnov distance to the exponential CDF
 * below 1.63 / sqrt(n) (the 1 % critical value).
 */
static void test_poisson_gaps_are_exponential(void)
{
    const int n = 200000;
    const double rate = 1000.0, mean_ns = 1e9 / rate;
    schedule_t s;
    schedule_init(&s, 0, rate, SCHEDULE_POISSON, 42);
    double *gaps = malloc(sizeof(double) * (size_t)n);
    uint64_t last = 0;
    double sum = 0, sum_sq = 0;
    int longer = 0, ordered = 1;
    for (int i = 0; i < n; i++) {
        uint64_t t = schedule_next_ns(&s);
        ordered &= t >= last;
        gaps[i] = (double)(t - last);
        last = t;
        schedule_advance(&s);
        sum += gaps[i];
        sum_sq += gaps[i] * gaps[i];
        longer += gaps[i] > mean_ns;
    }
    CHECK(ordered);
    double mean = sum / n;
    double sd = sqrt(sum_sq / n - mean * mean);
    CHECK(fabs(mean / mean_ns - 1) < 0.01);
    CHECK(fabs(sd / mean - 1) < 0.02);
    CHECK(fabs((double)longer / n - exp(-1.0)) < 0.01);

    qsort(gaps, (size_t)n, sizeof(double), test_compare_doubles);
    double ks = 0;
    for (int i = 0; i < n; i++) {
        double cdf = 1 - exp(-gaps[i] / mean_ns);
        double above = (double)(i + 1) / n - cdf, below = cdf - (double)i / n;
        if (above > ks)
            ks = above;
        if (below > ks)
            ks = below;
    }
    CHECK(ks < 1.63 / sqrt((double)n));
    free(gaps);
}

static void test_poisson_is_reproducible_from_its_seed(void)
{
    schedule_t a, b, c;
    schedule_init(&a, 7 * S, 3000, SCHEDULE_POISSON, 123);
    schedule_init(&b, 7 * S, 3000, SCHEDULE_POISSON, 123);
    schedule_init(&c, 7 * S, 3000, SCHEDULE_POISSON, 124);
    int same = 1, differ = 0;
    for (int i = 0; i < 1000; i++) {
        same &= schedule_next_ns(&a) == schedule_next_ns(&b);
        differ |= schedule_next_ns(&a) != schedule_next_ns(&c);
        same &= schedule_next_ns(&a) >= 7 * S;
        schedule_advance(&a);
        schedule_advance(&b);
        schedule_advance(&c);
    }
    CHECK(same);
    CHECK(differ);
    /* over 100 s at 1000/s the count is within 4 sd (sqrt(100000) ~ 316) of 100,000 */
    uint64_t count = due_between(SCHEDULE_POISSON, 1000, 9, 0, 100 * S);
    CHECK(count > 100000 - 1265 && count < 100000 + 1265);
}

static void test_arrival_names(void)
{
    CHECK(schedule_parse_arrivals("uniform") == SCHEDULE_UNIFORM);
    CHECK(schedule_parse_arrivals("poisson") == SCHEDULE_POISSON);
    CHECK(schedule_parse_arrivals("random") == -1);
    CHECK(schedule_arrivals_name(SCHEDULE_POISSON)[0] == 'p');
}

static void test_the_stall_deadline(void)
{
    /* given, twice the timeout, or the minimum */
    CHECK_EQ_U(schedule_stall_ns(2 * S, 3 * S), 3 * S);
    CHECK_EQ_U(schedule_stall_ns(30 * S, 0), 60 * S);
    CHECK_EQ_U(schedule_stall_ns(2 * S, 0), SCHEDULE_MIN_STALL_NS);
    CHECK(!schedule_stalled(10 * S, 10 * S + 999 * MS, 1 * S));
    CHECK(schedule_stalled(10 * S, 11 * S, 1 * S));
    CHECK(!schedule_stalled(10 * S, 9 * S, 1 * S)); /* progress published after now was read */
}

int main(void)
{
    test_uniform_slots_are_evenly_spaced_without_drift();
    test_uniform_counts_exactly();
    test_poisson_gaps_are_exponential();
    test_poisson_is_reproducible_from_its_seed();
    test_arrival_names();
    test_the_stall_deadline();
    return test_summary("schedule");
}
