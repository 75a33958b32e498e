/*
 * series.c - see series.h.
 */
#include "series.h"

#include <stdlib.h>
#include <string.h>

void series_init(series_t *s, uint64_t interval_ns)
{
    memset(s, 0, sizeof(*s));
    s->interval_ns = interval_ns ? interval_ns : 1;
}

void series_free(series_t *s)
{
    for (size_t i = 0; i < s->len; i++)
        hist_free(s->slots[i].latency_us);
    free(s->slots);
    s->slots = NULL;
    s->len = s->cap = 0;
}

int series_pad(series_t *s, size_t len)
{
    if (len > s->cap) {
        size_t cap = s->cap ? s->cap : 64;
        while (cap < len)
            cap *= 2;
        series_slot_t *grown = realloc(s->slots, cap * sizeof(*grown));
        if (!grown)
            return -1;
        memset(grown + s->cap, 0, (cap - s->cap) * sizeof(*grown));
        s->slots = grown;
        s->cap = cap;
    }
    if (len > s->len)
        s->len = len;
    return 0;
}

series_slot_t *series_slot_at(series_t *s, uint64_t offset_ns)
{
    size_t i = (size_t)(offset_ns / s->interval_ns);
    if (i >= s->len && series_pad(s, i + 1) < 0)
        return NULL;
    return &s->slots[i];
}

int series_record(series_t *s, uint64_t offset_ns, uint64_t latency_us)
{
    series_slot_t *slot = series_slot_at(s, offset_ns);
    if (!slot)
        return -1;
    if (!slot->latency_us) {
        slot->latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_SERIES_DIGITS);
        if (!slot->latency_us)
            return -1;
    }
    slot->requests++;
    hist_record(slot->latency_us, latency_us);
    return 0;
}

int series_error(series_t *s, uint64_t offset_ns)
{
    series_slot_t *slot = series_slot_at(s, offset_ns);
    if (!slot)
        return -1;
    slot->errors++;
    return 0;
}

int series_merge(series_t *dst, const series_t *src)
{
    if (dst->interval_ns != src->interval_ns)
        return -1;
    if (series_pad(dst, src->len) < 0)
        return -1;
    for (size_t i = 0; i < src->len; i++) {
        const series_slot_t *from = &src->slots[i];
        series_slot_t *to = &dst->slots[i];
        to->requests += from->requests;
        to->errors += from->errors;
        if (from->latency_us) {
            if (!to->latency_us) {
                to->latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_SERIES_DIGITS);
                if (!to->latency_us)
                    return -1;
            }
            if (hist_merge(to->latency_us, from->latency_us) < 0)
                return -1;
        }
    }
    return 0;
}
