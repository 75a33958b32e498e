/*
 * output.h - render a finished run: a human summary like wrk's, or JSON.
 *
 * Both read the same config_t and run_result_t and write to `out`; the
 * warnings (advice as data, warnings.h) are collected once per rendering.
 * JSON field names carry their units (duration_s, latency_us, ...). The
 * engine reports counts beside its percentiles and leaves to rackbench
 * (Measurement) whether enough requests support one.
 *
 * The units below it (mix.c, clients.c, figures.c) write their own parts
 * with the JSON writer (json.h); none of them calls back into this file.
 */
#ifndef RACKBENCH_OUTPUT_H
#define RACKBENCH_OUTPUT_H

#include <stdio.h>

#include "config.h"
#include "worker.h"

/* The human summary prints the time series when it has at most this many intervals. */
#define OUTPUT_HUMAN_SERIES_MAX 120

/* output_human - the summary for a terminal. */
void output_human(FILE *out, const config_t *cfg, const run_result_t *r);

/* output_json - one JSON object followed by a newline. */
void output_json(FILE *out, const config_t *cfg, const run_result_t *r);

#endif
