/*
 * hist.c - log-linear histogram, see hist.h.
 *
 * Layout: bucket 0 holds values 0 .. sub_bucket_count-1 at width 1; each
 * following bucket covers twice the range of the one before at twice the
 * width, storing only its upper half (the lower half is the previous
 * bucket). A value's bucket is found from its highest set bit, its slot
 * inside the bucket by shifting it right by the bucket's number.
 */
#include "hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int hist_bits_for(uint64_t v)
{
    return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

hist_t *hist_new(uint64_t highest, int digits)
{
    if (highest < 2 || digits < 1 || digits > 5)
        return NULL;
    hist_t *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    uint64_t largest_single_unit = 2;
    for (int d = 0; d < digits; d++)
        largest_single_unit *= 10;
    int sub_bucket_magnitude = hist_bits_for(largest_single_unit - 1);
    h->highest = highest;
    h->digits = digits;
    h->sub_bucket_half_magnitude = sub_bucket_magnitude - 1;
    h->sub_bucket_count = 1ULL << sub_bucket_magnitude;
    h->sub_bucket_half_count = h->sub_bucket_count / 2;
    h->sub_bucket_mask = h->sub_bucket_count - 1;
    int buckets = 1;
    uint64_t smallest_untrackable = h->sub_bucket_count;
    while (smallest_untrackable <= highest) {
        smallest_untrackable <<= 1;
        buckets++;
    }
    h->bucket_count = buckets;
    h->counts_len = (size_t)(buckets + 1) * h->sub_bucket_half_count;
    h->counts = calloc(h->counts_len, sizeof(uint64_t));
    if (!h->counts) {
        free(h);
        return NULL;
    }
    hist_reset(h);
    return h;
}

void hist_free(hist_t *h)
{
    if (!h)
        return;
    free(h->counts);
    free(h);
}

void hist_reset(hist_t *h)
{
    memset(h->counts, 0, h->counts_len * sizeof(uint64_t));
    h->total = 0;
    h->saturated = 0;
    h->min = UINT64_MAX;
    h->max = 0;
    h->sum = 0;
    h->sum_sq = 0;
}

size_t hist_index_of(const hist_t *h, uint64_t value)
{
    int bucket = hist_bits_for(value | h->sub_bucket_mask) - (h->sub_bucket_half_magnitude + 1);
    uint64_t sub = value >> bucket;
    return ((size_t)(bucket + 1) << h->sub_bucket_half_magnitude) + (sub - h->sub_bucket_half_count);
}

static void hist_bucket_of_index(const hist_t *h, size_t i, int *bucket, uint64_t *sub)
{
    int b = (int)(i >> h->sub_bucket_half_magnitude) - 1;
    uint64_t s = (i & (h->sub_bucket_half_count - 1)) + h->sub_bucket_half_count;
    if (b < 0) {
        s -= h->sub_bucket_half_count;
        b = 0;
    }
    *bucket = b;
    *sub = s;
}

uint64_t hist_lowest_at(const hist_t *h, size_t i)
{
    int bucket;
    uint64_t sub;
    hist_bucket_of_index(h, i, &bucket, &sub);
    return sub << bucket;
}

uint64_t hist_highest_at(const hist_t *h, size_t i)
{
    int bucket;
    uint64_t sub;
    hist_bucket_of_index(h, i, &bucket, &sub);
    return (sub << bucket) + (1ULL << bucket) - 1;
}

void hist_record(hist_t *h, uint64_t value)
{
    if (value > h->highest) {
        value = h->highest;
        h->saturated++;
    }
    h->counts[hist_index_of(h, value)]++;
    h->total++;
    if (value < h->min)
        h->min = value;
    if (value > h->max)
        h->max = value;
    double v = (double)value;
    h->sum += v;
    h->sum_sq += v * v;
}

int hist_merge(hist_t *dst, const hist_t *src)
{
    if (dst->counts_len != src->counts_len || dst->digits != src->digits)
        return -1;
    if (src->total == 0)
        return 0;
    for (size_t i = 0; i < src->counts_len; i++)
        dst->counts[i] += src->counts[i];
    dst->total += src->total;
    dst->saturated += src->saturated;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    return 0;
}

uint64_t hist_percentile(const hist_t *h, double percentile)
{
    if (h->total == 0)
        return 0;
    if (percentile <= 0)
        return h->min;
    if (percentile > 100)
        percentile = 100;
    uint64_t wanted = (uint64_t)ceil(percentile / 100.0 * (double)h->total);
    if (wanted < 1)
        wanted = 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < h->counts_len; i++) {
        seen += h->counts[i];
        if (seen >= wanted) {
            uint64_t v = hist_highest_at(h, i);
            if (v > h->max)
                v = h->max;
            if (v < h->min)
                v = h->min;
            return v;
        }
    }
    return h->max;
}

double hist_mean(const hist_t *h)
{
    return h->total ? h->sum / (double)h->total : 0.0;
}

double hist_stdev(const hist_t *h)
{
    if (h->total == 0)
        return 0.0;
    double mean = hist_mean(h);
    double var = h->sum_sq / (double)h->total - mean * mean;
    return var > 0 ? sqrt(var) : 0.0;
}

int hist_next_bucket(const hist_t *h, size_t *i, uint64_t *value, uint64_t *count)
{
    while (*i < h->counts_len) {
        size_t at = (*i)++;
        if (h->counts[at]) {
            uint64_t v = hist_highest_at(h, at);
            *value = v > h->highest ? h->highest : v;
            *count = h->counts[at];
            return 1;
        }
    }
    return 0;
}
