/*
 * figures.c - the engine's figures as JSON, see figures.h.
 */
#include "figures.h"

const figures_percentile_t figures_percentiles[] = {
    {50, "p50", "50%"},      {75, "p75", "75%"},       {90, "p90", "90%"},
    {99, "p99", "99%"},      {99.9, "p99_9", "99.9%"}, {99.99, "p99_99", "99.99%"},
};
const size_t figures_percentile_count = sizeof(figures_percentiles) / sizeof(figures_percentiles[0]);

double figures_per_s(uint64_t count, double duration_s)
{
    return duration_s > 0 ? (double)count / duration_s : 0.0;
}

void figures_json_errors(json_t *j, uint64_t status, uint64_t check, uint64_t other)
{
    json_open_object(j, "errors");
    json_uint(j, "status", status);
    json_uint(j, "check", check);
    json_uint(j, "other", other);
    json_close_object(j);
}

void figures_json_latency(json_t *j, const char *key, const hist_t *h, int shape)
{
    json_open_object(j, key);
    json_real(j, "mean", hist_mean(h), 3);
    if (shape == FIGURES_LATENCY_SHORT) {
        json_uint(j, "max", h->max);
        json_uint(j, "p50", hist_percentile(h, 50));
        json_uint(j, "p90", hist_percentile(h, 90));
        json_uint(j, "p99", hist_percentile(h, 99));
        json_close_object(j);
        return;
    }
    json_real(j, "stdev", hist_stdev(h), 3);
    json_uint(j, "min", h->total ? h->min : 0);
    json_uint(j, "max", h->max);
    for (size_t i = 0; i < figures_percentile_count; i++)
        json_uint(j, figures_percentiles[i].json_name, hist_percentile(h, figures_percentiles[i].percentile));
    json_close_object(j);
}

void figures_json_histogram(json_t *j, const char *key, const hist_t *h)
{
    size_t it = 0;
    uint64_t value, count;
    json_open_array(j, key);
    while (hist_next_bucket(h, &it, &value, &count)) {
        json_open_array(j, NULL);
        json_uint(j, NULL, value);
        json_uint(j, NULL, count);
        json_close_array(j);
    }
    json_close_array(j);
}

void figures_json_window_requests(json_t *j, const censor_t *cohort)
{
    json_open_object(j, "window_requests");
    json_uint(j, "total", censor_requests(cohort));
    json_uint(j, "completed", cohort->latency_us->total);
    json_uint(j, "failed", censor_failed(cohort));
    json_uint(j, "censored", censor_total(cohort));
    for (int k = 0; k < CENSOR_KINDS; k++)
        json_uint(j, censor_kind_name(k), cohort->count[k]);
    figures_json_histogram(j, "histogram", cohort->latency_us);
    figures_json_histogram(j, "censored_histogram", cohort->age_us);
    json_close_object(j);
    int bound[16];
    json_open_object(j, "latency_all_us");
    for (size_t i = 0; i <= figures_percentile_count; i++) {
        double p = i < figures_percentile_count ? figures_percentiles[i].percentile : 100;
        const char *name = i < figures_percentile_count ? figures_percentiles[i].json_name : "max";
        json_uint(j, name, censor_percentile(cohort, p, &bound[i]));
    }
    json_close_object(j);
    json_open_object(j, "latency_all_censored");
    for (size_t i = 0; i <= figures_percentile_count; i++)
        json_bool(j, i < figures_percentile_count ? figures_percentiles[i].json_name : "max", bound[i]);
    json_close_object(j);
}
