/*
 * series.h - per-interval figures of a run (requests, errors, latency).
 *
 * Interval i covers [i * interval, (i + 1) * interval) measured from the
 * start of the counted window. Each interval keeps its own coarse
 * histogram (HIST_SERIES_DIGITS digits), allocated when the interval
 * sees its first latency, so a series costs memory only where used.
 * Series of several threads merge interval by interval.
 */
#ifndef RACKBENCH_SERIES_H
#define RACKBENCH_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

typedef struct series_slot {
    uint64_t requests;
    uint64_t errors;
    hist_t *latency_us;  /* NULL until the first latency of the interval */
} series_slot_t;

typedef struct series {
    uint64_t interval_ns;
    size_t len;          /* slots in use: highest interval seen + 1 */
    size_t cap;
    series_slot_t *slots;
} series_t;

/* series_init - an empty series of intervals `interval_ns` long (> 0). */
void series_init(series_t *s, uint64_t interval_ns);

/* series_free - release every slot. */
void series_free(series_t *s);

/*
 * series_slot_at - the slot for `offset_ns` after the window start,
 * growing the series as needed. Returns NULL only when out of memory.
 */
series_slot_t *series_slot_at(series_t *s, uint64_t offset_ns);

/* series_record - one completed request with its latency. Returns 0 or -1 (out of memory). */
int series_record(series_t *s, uint64_t offset_ns, uint64_t latency_us);

/* series_error - one error of any kind. Returns 0 or -1 (out of memory). */
int series_error(series_t *s, uint64_t offset_ns);

/* series_merge - add `src` interval by interval into `dst` (same interval). Returns 0 or -1. */
int series_merge(series_t *dst, const series_t *src);

/* series_pad - keep at least `len` slots visible (pads empty intervals). Returns 0 or -1. */
int series_pad(series_t *s, size_t len);

#endif
