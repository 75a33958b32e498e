/*
 * warnings.c - the advice a run calls for, see warnings.h.
 */
#include "warnings.h"

#include <stdarg.h>
#include <string.h>

#include "units.h"

/* The CPU share of its own time at which a client thread counts as saturated. */
#define WARNINGS_SATURATED_CPU_SHARE 0.90
/* Shares of the requests above which failed answers or errors earn a warning. */
#define WARNINGS_ANSWER_SHARE 0.01
#define WARNINGS_ERROR_SHARE 0.01
/* The share of requests without a response above which the summary warns of censoring. */
#define WARNINGS_UNFINISHED_SHARE 0.01
/* Open loop: the share of the requests due in the window that may go without a
   response unremarked. (Not the achieved rate against the target: Poisson
   arrivals put 85 to 116 requests in a 3 s window at 33.5 req/s, by seed.) */
#define WARNINGS_RATE_SHORTFALL_SHARE 0.01
/* Slow clients: the share under the rate asked at which the pace counts as not held. */
#define WARNINGS_PACE_SHORTFALL_SHARE 0.20

/* A new warning with its sentence; NULL when the list is full. */
__attribute__((format(printf, 3, 4))) static warning_t *warnings_add(warnings_t *w, const char *code,
                                                                     const char *fmt, ...)
{
    if (w->count >= WARNINGS_MAX)
        return NULL;
    warning_t *one = &w->list[w->count++];
    memset(one, 0, sizeof(*one));
    one->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(one->text, WARNINGS_TEXT_BYTES, fmt, ap);
    va_end(ap);
    return one;
}

/* One figure of a warning (decimals 0: a whole number). */
static void warnings_field(warning_t *one, const char *name, double value, int decimals)
{
    if (!one || one->field_count >= WARNINGS_MAX_FIELDS)
        return;
    one->fields[one->field_count++] = (warning_field_t){name, value, decimals};
}

static uint64_t warnings_errors(const worker_counts_t *c)
{
    return c->err_connect + c->err_read + c->err_write + c->err_timeout + c->err_malformed + c->err_status +
           c->err_check;
}

static void warnings_client(const config_t *cfg, const run_result_t *r, warnings_t *w)
{
    if (r->max_thread_cpu_share >= WARNINGS_SATURATED_CPU_SHARE) {
        warning_t *one = warnings_add(w, "client_cpu",
                                      "client CPU saturated: busiest load thread at %.0f %% of its time; figures are a "
                                      "floor for the server, not its capacity (add -t threads or give the client its "
                                      "own core)",
                                      r->max_thread_cpu_share * 100);
        warnings_field(one, "max_thread_share", r->max_thread_cpu_share, 4);
    }
    if (r->counts.err_timeout) {
        warning_t *one = warnings_add(w, "timeouts",
                                      "%llu requests timed out after %.3gs: their latencies are censored (in "
                                      "latency_all_us as lower bounds, not in latency_us); raise --timeout to see the "
                                      "tail",
                                      (unsigned long long)r->counts.err_timeout, (double)cfg->timeout_ns / 1e9);
        warnings_field(one, "timeouts", (double)r->counts.err_timeout, 0);
        warnings_field(one, "timeout_s", (double)cfg->timeout_ns / 1e9, 3);
    }
}

static void warnings_censored(const run_result_t *r, warnings_t *w)
{
    const censor_t *cohort = &r->cohort;
    uint64_t censored = censor_total(cohort);
    uint64_t everything = censor_requests(cohort);
    if (!censored || (double)censored <= WARNINGS_UNFINISHED_SHARE * (double)everything)
        return;
    int bound;
    uint64_t p50 = censor_percentile(cohort, 50, &bound);
    char a[32];
    warning_t *one = warnings_add(
        w, "censored",
        "%.1f %% of the window's requests had no response (%llu timed out, %llu in flight and %llu never sent when "
        "the run stopped): their latencies are censored, and the median of all is %s%s%s",
        100.0 * (double)censored / (double)everything, (unsigned long long)cohort->count[CENSOR_TIMEOUT],
        (unsigned long long)cohort->count[CENSOR_IN_FLIGHT], (unsigned long long)cohort->count[CENSOR_UNSENT],
        bound ? "at least " : "", units_format_us(a, sizeof(a), (double)p50),
        bound ? ": the server is past its capacity" : "");
    warnings_field(one, "censored", (double)censored, 0);
    warnings_field(one, "total", (double)everything, 0);
    warnings_field(one, "timeout", (double)cohort->count[CENSOR_TIMEOUT], 0);
    warnings_field(one, "in_flight", (double)cohort->count[CENSOR_IN_FLIGHT], 0);
    warnings_field(one, "unsent", (double)cohort->count[CENSOR_UNSENT], 0);
    warnings_field(one, "p50_all_us", (double)p50, 0);
    warnings_field(one, "p50_all_censored", bound, 0);
}

static void warnings_failures(const run_result_t *r, warnings_t *w)
{
    const worker_counts_t *c = &r->counts;
    uint64_t failed = c->err_status + c->err_check;
    if (c->requests && (double)failed > WARNINGS_ANSWER_SHARE * (double)c->requests) {
        warning_t *one = warnings_add(w, "answers",
                                      "%.1f %% of responses failed their check (%llu not an expected status, %llu "
                                      "without the expected body): check the endpoint and the server's log",
                                      100.0 * (double)failed / (double)c->requests, (unsigned long long)c->err_status,
                                      (unsigned long long)c->err_check);
        warnings_field(one, "failed", (double)failed, 0);
        warnings_field(one, "responses", (double)c->requests, 0);
        warnings_field(one, "status", (double)c->err_status, 0);
        warnings_field(one, "check", (double)c->err_check, 0);
    }
    uint64_t errors = warnings_errors(c);
    if (errors && (double)errors > WARNINGS_ERROR_SHARE * (double)(c->requests + errors)) {
        warning_t *one = warnings_add(w, "errors",
                                      "%.1f %% of attempts ended in errors: throughput and latency describe a failing "
                                      "server",
                                      100.0 * (double)errors / (double)(c->requests + errors));
        warnings_field(one, "errors", (double)errors, 0);
        warnings_field(one, "attempts", (double)(c->requests + errors), 0);
    }
}

static void warnings_schedule(const config_t *cfg, const run_result_t *r, warnings_t *w)
{
    const worker_counts_t *c = &r->counts;
    uint64_t everything = censor_requests(&r->cohort);
    uint64_t served = r->cohort.latency_us->total;
    double rps = r->duration_s > 0 ? (double)c->requests / r->duration_s : 0;
    if (cfg->rate_per_s > 0 && everything &&
        (double)served < (double)everything * (1 - WARNINGS_RATE_SHORTFALL_SHARE)) {
        warning_t *one = warnings_add(w, "shortfall",
                                      "open loop served %llu of the %llu requests due in the counted window (%.1f "
                                      "req/s achieved, %.1f targeted): the server (or the client) could not keep up, "
                                      "so latencies include queueing",
                                      (unsigned long long)served, (unsigned long long)everything, rps, cfg->rate_per_s);
        warnings_field(one, "served", (double)served, 0);
        warnings_field(one, "due", (double)everything, 0);
        warnings_field(one, "achieved_per_s", rps, 1);
        warnings_field(one, "target_per_s", cfg->rate_per_s, 1);
    }
    if (c->unsent) {
        warning_t *one = warnings_add(w, "unsent",
                                      "%llu requests due in the counted window were never sent (every connection was "
                                      "busy until the run stopped): the server fell behind the schedule; add "
                                      "connections (-c) if it did not",
                                      (unsigned long long)c->unsent);
        warnings_field(one, "unsent", (double)c->unsent, 0);
    }
}

static void warnings_run(const config_t *cfg, const run_result_t *r, warnings_t *w)
{
    const worker_counts_t *c = &r->counts;
    if (r->latency_us->saturated) {
        warning_t *one = warnings_add(w, "clamped", "%llu latencies exceeded the histogram's %llus range and were clamped",
                                      (unsigned long long)r->latency_us->saturated,
                                      (unsigned long long)(HIST_LATENCY_HIGHEST_US / 1000000));
        warnings_field(one, "clamped", (double)r->latency_us->saturated, 0);
        warnings_field(one, "highest_s", (double)(HIST_LATENCY_HIGHEST_US / 1000000), 0);
    }
    if (c->requests == 0)
        warnings_add(w, "no_requests", "no request completed in the counted window");
    if (r->interrupted)
        warnings_field(warnings_add(w, "interrupted", "interrupted: the counted window was cut short at %.3fs",
                                    r->duration_s),
                       "duration_s", r->duration_s, 3);
    if (r->stalled) {
        warning_t *one = warnings_add(w, "stalled",
                                      "stalled: no response for %.3gs, so the run ended after %llu of the %llu "
                                      "requests asked (-n); raise --stall-timeout for a slower server",
                                      (double)cfg->stall_ns / 1e9, (unsigned long long)c->requests,
                                      (unsigned long long)cfg->requests_limit);
        warnings_field(one, "stall_s", (double)cfg->stall_ns / 1e9, 3);
        warnings_field(one, "requests", (double)c->requests, 0);
        warnings_field(one, "asked", (double)cfg->requests_limit, 0);
    }
}

/* A slow group's pace more than WARNINGS_PACE_SHORTFALL_SHARE under the rate asked. */
static void warnings_pace(warnings_t *w, const char *code, const char *what, double asked, uint64_t bytes,
                          uint64_t ns)
{
    if (asked <= 0 || ns == 0)
        return;
    double held = (double)bytes * 1e9 / (double)ns;
    if (held >= asked * (1 - WARNINGS_PACE_SHORTFALL_SHARE))
        return;
    warning_t *one = warnings_add(w, code,
                                  "slow clients %s at %.0f bytes/s, %.0f asked: the server (or the client) held them "
                                  "back, so they were slower than asked",
                                  what, held, asked);
    warnings_field(one, "held_bytes_per_s", held, 1);
    warnings_field(one, "asked_bytes_per_s", asked, 1);
}

static void warnings_bodies(const config_t *cfg, const run_result_t *r, warnings_t *w)
{
    const clients_stats_t *slow = &r->clients[CLIENTS_SLOW];
    warnings_pace(w, "slow_send", "sent", cfg->slow.send_bytes_per_s, slow->send_bytes, slow->send_ns);
    warnings_pace(w, "slow_read", "read", cfg->slow.read_bytes_per_s, slow->read_bytes, slow->read_ns);
    if (r->counts.undecoded) {
        warning_t *one = warnings_add(w, "undecoded",
                                      "%llu responses had a body whose decoded size is unknown (a coding other than "
                                      "gzip, or gzip without its trailer): decoded_bytes counts them as sent",
                                      (unsigned long long)r->counts.undecoded);
        warnings_field(one, "responses", (double)r->counts.undecoded, 0);
    }
}

void warnings_collect(const config_t *cfg, const run_result_t *r, warnings_t *w)
{
    memset(w, 0, sizeof(*w));
    warnings_client(cfg, r, w);
    warnings_censored(r, w);
    warnings_failures(r, w);
    warnings_schedule(cfg, r, w);
    warnings_run(cfg, r, w);
    warnings_bodies(cfg, r, w);
}
