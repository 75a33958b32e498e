/*
 * output.h - render a finished run: a human summary like wrk's, or JSON.
 *
 * Both read the same config_t and run_result_t and write to `out`; the
 * warnings (advice as data) are computed once by output_warnings().
 * JSON field names carry their units (duration_s, latency_us, ...).
 */
#ifndef RACKBENCH_OUTPUT_H
#define RACKBENCH_OUTPUT_H

#include <stdio.h>

#include "config.h"
#include "worker.h"

#define OUTPUT_MAX_WARNINGS 16
#define OUTPUT_WARNING_BYTES 320
/* The human summary prints the time series when it has at most this many intervals. */
#define OUTPUT_HUMAN_SERIES_MAX 120

typedef struct output_warnings {
    int count;
    char text[OUTPUT_MAX_WARNINGS][OUTPUT_WARNING_BYTES];
} output_warnings_t;

/* output_warnings - fill *w with the advice the run calls for. */
void output_warnings(const config_t *cfg, const run_result_t *r, output_warnings_t *w);

/* output_human - the summary for a terminal. */
void output_human(FILE *out, const config_t *cfg, const run_result_t *r);

/* output_json - one JSON object followed by a newline. */
void output_json(FILE *out, const config_t *cfg, const run_result_t *r);

/* output_json_histogram - a histogram's non-empty buckets: [[value_us,count],...]. */
void output_json_histogram(FILE *out, const hist_t *h);

/*
 * output_json_window_requests - the window's requests (censor.h) and the
 * percentiles over all of them: ,"window_requests":{"total":n,
 * "completed":n,"failed":n,"censored":n,"timeout":n,"in_flight":n,
 * "unsent":n,"histogram":[..],"censored_histogram":[..]},
 * "latency_all_us":{"p50":..,"max":..},"latency_all_censored":{"p50":false,..}
 * (true: the value is a lower bound).
 */
void output_json_window_requests(FILE *out, const censor_t *cohort);

#endif
