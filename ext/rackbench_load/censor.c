/*
 * censor.c - the window's requests with right-censored latencies, see censor.h.
 */
#include "censor.h"

#include <math.h>
#include <string.h>

int censor_init(censor_t *c)
{
    memset(c, 0, sizeof(*c));
    c->latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    c->age_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    return c->latency_us && c->age_us ? 0 : -1;
}

void censor_free(censor_t *c)
{
    hist_free(c->latency_us);
    hist_free(c->age_us);
    memset(c, 0, sizeof(*c));
}

void censor_issue(censor_t *c)
{
    c->issued++;
}

void censor_withdraw(censor_t *c)
{
    if (c->issued)
        c->issued--;
}

void censor_complete(censor_t *c, uint64_t latency_us)
{
    hist_record(c->latency_us, latency_us);
}

void censor_record(censor_t *c, int kind, uint64_t age_us)
{
    c->count[kind]++;
    hist_record(c->age_us, age_us);
}

int censor_merge(censor_t *dst, const censor_t *src)
{
    if (hist_merge(dst->latency_us, src->latency_us) < 0 || hist_merge(dst->age_us, src->age_us) < 0)
        return -1;
    dst->issued += src->issued;
    for (int k = 0; k < CENSOR_KINDS; k++)
        dst->count[k] += src->count[k];
    return 0;
}

uint64_t censor_total(const censor_t *c)
{
    uint64_t total = 0;
    for (int k = 0; k < CENSOR_KINDS; k++)
        total += c->count[k];
    return total;
}

uint64_t censor_requests(const censor_t *c)
{
    return c->issued + c->count[CENSOR_UNSENT];
}

uint64_t censor_failed(const censor_t *c)
{
    uint64_t ended = c->latency_us->total + censor_total(c);
    uint64_t all = censor_requests(c);
    return all > ended ? all - ended : 0;
}

uint64_t censor_percentile(const censor_t *c, double percentile, int *bound)
{
    const hist_t *done = c->latency_us, *ages = c->age_us;
    uint64_t total = done->total + ages->total;
    *bound = 0;
    if (total == 0)
        return 0;
    if (percentile > 100)
        percentile = 100;
    if (percentile < 0)
        percentile = 0;
    uint64_t wanted = (uint64_t)ceil(percentile / 100.0 * (double)total);
    if (wanted < 1)
        wanted = 1;
    uint64_t lowest = done->min < ages->min ? done->min : ages->min;
    uint64_t highest = done->max > ages->max ? done->max : ages->max;
    uint64_t seen = 0, seen_completed = 0;
    for (size_t i = 0; i < done->counts_len; i++) {
        seen += done->counts[i] + ages->counts[i];
        seen_completed += done->counts[i];
        if (seen >= wanted) {
            *bound = seen_completed < wanted;
            uint64_t v = hist_highest_at(done, i);
            if (v > highest)
                v = highest;
            if (v < lowest)
                v = lowest;
            return v;
        }
    }
    *bound = 1;
    return highest;
}

const char *censor_kind_name(int kind)
{
    static const char *names[CENSOR_KINDS] = {"timeout", "in_flight", "unsent"};
    return kind >= 0 && kind < CENSOR_KINDS ? names[kind] : "?";
}
