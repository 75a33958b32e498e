/*
 * hist.h - a log-linear latency histogram (HdrHistogram's idea).
 *
 * Values are non-negative integers (rackbench records microseconds).
 * Every value from 0 to the histogram's highest trackable value is kept
 * with a fixed number of significant decimal digits: values below
 * 2 * 10^digits (rounded up to a power of two) are exact, larger values
 * share a bucket whose width is at most 1 / 10^digits of the value.
 * Memory is fixed at hist_new() time and never grows; histograms with
 * the same shape can be merged (threads, intervals, runs).
 *
 * Values above the highest trackable value are clamped to it and counted
 * in `saturated`, so nothing recorded is ever lost from the count.
 */
#ifndef RACKBENCH_HIST_H
#define RACKBENCH_HIST_H

#include <stddef.h>
#include <stdint.h>

/* The shape used for the run's latency: 1 us .. 60 s at 3 digits. */
#define HIST_LATENCY_HIGHEST_US 60000000ULL
#define HIST_LATENCY_DIGITS 3
/* The shape used per time-series interval: coarser, 2 digits. */
#define HIST_SERIES_DIGITS 2

typedef struct hist {
    uint64_t highest;       /* highest trackable value */
    int digits;             /* significant decimal digits */
    int sub_bucket_half_magnitude;
    uint64_t sub_bucket_count;
    uint64_t sub_bucket_half_count;
    uint64_t sub_bucket_mask;
    int bucket_count;
    size_t counts_len;
    uint64_t total;         /* number of recorded values */
    uint64_t saturated;     /* values clamped to `highest` */
    uint64_t min;           /* exact smallest recorded value */
    uint64_t max;           /* exact largest recorded value */
    double sum;             /* exact sum, for the mean */
    double sum_sq;          /* exact sum of squares, for the stdev */
    uint64_t *counts;       /* counts_len counters */
} hist_t;

/*
 * hist_new - allocate an empty histogram.
 * highest: largest value tracked (>= 2); digits: 1..5 significant digits.
 * Returns NULL on bad arguments or when out of memory.
 */
hist_t *hist_new(uint64_t highest, int digits);

/* hist_free - release a histogram from hist_new(); NULL is ignored. */
void hist_free(hist_t *h);

/* hist_reset - forget every recorded value, keeping the shape. */
void hist_reset(hist_t *h);

/* hist_record - record one value (clamped to h->highest). */
void hist_record(hist_t *h, uint64_t value);

/*
 * hist_merge - add every value of `src` into `dst`.
 * Returns 0, or -1 when the two histograms differ in shape (dst unchanged).
 */
int hist_merge(hist_t *dst, const hist_t *src);

/*
 * hist_percentile - the value at or below which `percentile` (0..100)
 * percent of the recorded values fall, reported as the highest value
 * equivalent to its bucket and never above the exact maximum.
 * Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const hist_t *h, double percentile);

/* hist_mean / hist_stdev - exact mean and population standard deviation; 0 when empty. */
double hist_mean(const hist_t *h);
double hist_stdev(const hist_t *h);

/* hist_index_of - the counts index a value lands in (exposed for tests). */
size_t hist_index_of(const hist_t *h, uint64_t value);

/* hist_lowest_at / hist_highest_at - the range of values that land in counts index i. */
uint64_t hist_lowest_at(const hist_t *h, size_t i);
uint64_t hist_highest_at(const hist_t *h, size_t i);

/*
 * hist_next_bucket - iterate over non-empty buckets.
 * Start with *i = 0; each call stores the bucket's highest equivalent value
 * and its count, advances *i, and returns 1; returns 0 when done.
 */
int hist_next_bucket(const hist_t *h, size_t *i, uint64_t *value, uint64_t *count);

#endif
