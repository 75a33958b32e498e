/*
 * figures.h - the engine's measured figures as JSON, written the same way
 * wherever they appear (the run, each endpoint of a mix, each client group):
 * the reported percentiles, a latency summary, a histogram, and the window's
 * requests with the percentiles over all of them (censor.h).
 *
 *     json_t j; ...
 *     figures_json_latency(&j, "latency_us", hist, FIGURES_LATENCY_FULL);
 *     figures_json_histogram(&j, "histogram", hist);
 *     figures_json_window_requests(&j, &cohort);
 *
 * The engine reports counts beside every percentile; whether a percentile is
 * supported by enough requests is rackbench's decision (Measurement), not
 * the engine's.
 */
#ifndef RACKBENCH_FIGURES_H
#define RACKBENCH_FIGURES_H

#include <stddef.h>

#include "censor.h"
#include "hist.h"
#include "json.h"

/* A reported percentile: its value, its JSON name and its label in the summary. */
typedef struct figures_percentile {
    double percentile;
    const char *json_name;
    const char *label;
} figures_percentile_t;

extern const figures_percentile_t figures_percentiles[];
extern const size_t figures_percentile_count;

/* Which members figures_json_latency writes. */
enum figures_latency_shape {
    FIGURES_LATENCY_FULL,   /* mean, stdev, min, max and every reported percentile (the run) */
    FIGURES_LATENCY_SHORT   /* mean, max, p50, p90, p99 (an endpoint of a mix) */
};

/* figures_json_latency - "key":{...} summary of h's latencies in the given shape. */
void figures_json_latency(json_t *j, const char *key, const hist_t *h, int shape);

/* figures_json_histogram - "key":[[value_us,count],...] of h's non-empty buckets. */
void figures_json_histogram(json_t *j, const char *key, const hist_t *h);

/* figures_json_window_requests - the members "window_requests", "latency_all_us" and "latency_all_censored". */
void figures_json_window_requests(json_t *j, const censor_t *cohort);

/* figures_json_errors - "errors":{"status":..,"check":..,"other":..} of a part of the run (an endpoint, a client group). */
void figures_json_errors(json_t *j, uint64_t status, uint64_t check, uint64_t other);

/* figures_per_s - count over duration_s, 0 for an empty duration. */
double figures_per_s(uint64_t count, double duration_s);

#endif
