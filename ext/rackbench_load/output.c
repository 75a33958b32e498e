/*
 * output.c - see output.h.
 */
#include "output.h"

#include <stdarg.h>
#include <string.h>

#include "schedule.h"
#include "units.h"

/* The percentiles reported, with their JSON names. */
static const struct {
    double percentile;
    const char *json_name;
    const char *label;
} output_percentiles[] = {
    {50, "p50", "50%"},      {75, "p75", "75%"},       {90, "p90", "90%"},
    {99, "p99", "99%"},      {99.9, "p99_9", "99.9%"}, {99.99, "p99_99", "99.99%"},
};
#define OUTPUT_PERCENTILE_COUNT (sizeof(output_percentiles) / sizeof(output_percentiles[0]))

/* A percentile is printed when at least this many requests lie beyond it
 * (p99: 1,000 requests, p99.9: 10,000), as rackbench's reports require;
 * else the row says how many there were. */
#define OUTPUT_TAIL_REQUESTS 10

/* The CPU share of its own time at which a client thread counts as saturated. */
#define OUTPUT_SATURATED_CPU_SHARE 0.90
/* Shares of the requests above which non-2xx/3xx statuses or errors earn a warning. */
#define OUTPUT_BAD_STATUS_SHARE 0.01
#define OUTPUT_ERROR_SHARE 0.01
/* The share of requests without a response above which the summary warns of censoring. */
#define OUTPUT_UNFINISHED_SHARE 0.01
/* Open loop: the share of the requests due in the window that may go without a
   response unremarked. (Not the achieved rate against the target: Poisson
   arrivals put 85 to 116 requests in a 3 s window at 33.5 req/s, by seed.) */
#define OUTPUT_RATE_SHORTFALL_SHARE 0.01

/* The end of series interval i, in seconds: the last one may end early with the run. */
static double output_interval_end_s(const series_t *s, size_t i, double duration_s)
{
    double end = (double)(i + 1) * (double)s->interval_ns / 1e9;
    return end > duration_s && duration_s > 0 ? duration_s : end;
}

/* At least OUTPUT_TAIL_REQUESTS of count requests lie beyond percentile. */
static int output_estimable(uint64_t count, double percentile)
{
    return (double)count * (100.0 - percentile) / 100.0 >= OUTPUT_TAIL_REQUESTS;
}

static uint64_t output_errors_total(const worker_counts_t *c)
{
    return c->err_connect + c->err_read + c->err_write + c->err_timeout + c->err_malformed + c->err_check;
}

static void output_warn(output_warnings_t *w, const char *fmt, ...)
{
    if (w->count >= OUTPUT_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->text[w->count++], OUTPUT_WARNING_BYTES, fmt, ap);
    va_end(ap);
}

void output_warnings(const config_t *cfg, const run_result_t *r, output_warnings_t *w)
{
    const worker_counts_t *c = &r->counts;
    memset(w, 0, sizeof(*w));
    double rps = r->duration_s > 0 ? (double)c->requests / r->duration_s : 0;
    if (r->max_thread_cpu_share >= OUTPUT_SATURATED_CPU_SHARE)
        output_warn(w, "client CPU saturated: busiest load thread at %.0f %% of its time; figures are a floor "
                       "for the server, not its capacity (add -t threads or give the client its own core)",
                    r->max_thread_cpu_share * 100);
    if (c->err_timeout)
        output_warn(w, "%llu requests timed out after %.3gs: their latencies are censored (in latency_all_us as "
                       "lower bounds, not in latency_us); raise --timeout to see the tail",
                    (unsigned long long)c->err_timeout, (double)cfg->timeout_ns / 1e9);
    const censor_t *cohort = &r->cohort;
    uint64_t censored = censor_total(cohort);
    uint64_t everything = censor_requests(cohort);
    if (censored && (double)censored > OUTPUT_UNFINISHED_SHARE * (double)everything) {
        int bound;
        uint64_t p50 = censor_percentile(cohort, 50, &bound);
        char a[32];
        output_warn(w, "%.1f %% of the window's requests had no response (%llu timed out, %llu in flight and %llu "
                       "never sent when the run stopped): their latencies are censored, and the median of all is "
                       "%s%s%s",
                    100.0 * (double)censored / (double)everything, (unsigned long long)cohort->count[CENSOR_TIMEOUT],
                    (unsigned long long)cohort->count[CENSOR_IN_FLIGHT],
                    (unsigned long long)cohort->count[CENSOR_UNSENT], bound ? "at least " : "",
                    units_format_us(a, sizeof(a), (double)p50), bound ? ": the server is past its capacity" : "");
    }
    uint64_t ok = 0;
    for (int s = 200; s < 400; s++)
        ok += c->status[s];
    if (c->requests && (double)(c->requests - ok) > OUTPUT_BAD_STATUS_SHARE * (double)c->requests)
        output_warn(w, "%.1f %% of responses were not 2xx/3xx: check the endpoint and the server's log",
                    100.0 * (double)(c->requests - ok) / (double)c->requests);
    uint64_t errors = output_errors_total(c);
    if (errors && (double)errors > OUTPUT_ERROR_SHARE * (double)(c->requests + errors))
        output_warn(w, "%.1f %% of attempts ended in errors: throughput and latency describe a failing server",
                    100.0 * (double)errors / (double)(c->requests + errors));
    uint64_t served = cohort->latency_us->total;
    if (cfg->rate_per_s > 0 && everything && (double)served < (double)everything * (1 - OUTPUT_RATE_SHORTFALL_SHARE))
        output_warn(w, "open loop served %llu of the %llu requests due in the counted window (%.1f req/s achieved, "
                       "%.1f targeted): the server (or the client) could not keep up, so latencies include queueing",
                    (unsigned long long)served, (unsigned long long)everything, rps, cfg->rate_per_s);
    if (r->latency_us->saturated)
        output_warn(w, "%llu latencies exceeded the histogram's %llus range and were clamped",
                    (unsigned long long)r->latency_us->saturated,
                    (unsigned long long)(HIST_LATENCY_HIGHEST_US / 1000000));
    if (c->requests == 0)
        output_warn(w, "no request completed in the counted window");
    if (r->interrupted)
        output_warn(w, "interrupted: the counted window was cut short at %.3fs", r->duration_s);
    if (r->stalled)
        output_warn(w, "stalled: no response for %.3gs, so the run ended after %llu of the %llu requests asked "
                       "(-n); raise --stall-timeout for a slower server",
                    (double)cfg->stall_ns / 1e9, (unsigned long long)c->requests,
                    (unsigned long long)cfg->requests_limit);
    if (c->unsent)
        output_warn(w, "%llu requests due in the counted window were never sent (every connection was busy until "
                       "the run stopped): the server fell behind the schedule; add connections (-c) if it did not",
                    (unsigned long long)c->unsent);
}

/* ---- human ------------------------------------------------------------ */

void output_human(FILE *out, const config_t *cfg, const run_result_t *r)
{
    const worker_counts_t *c = &r->counts;
    const hist_t *h = r->latency_us;
    char a[32], b[32], d[32], e[32];
    int threads = (uint64_t)cfg->threads > cfg->connections ? (int)cfg->connections : cfg->threads;

    fprintf(out, "Running %.2fs test @ %s", r->duration_s, cfg->url);
    if (cfg->warmup_ns)
        fprintf(out, " (after %.2fs warm-up)", (double)cfg->warmup_ns / 1e9);
    fprintf(out, "\n  %d threads and %llu connections, ", threads, (unsigned long long)cfg->connections);
    if (cfg->rate_per_s > 0)
        fprintf(out, "open loop at %.1f req/s, %s arrivals (latency from scheduled send time)\n", cfg->rate_per_s,
                schedule_arrivals_name(cfg->arrivals));
    else
        fprintf(out, "closed loop (latency from send on a free connection; stalls are under-sampled)\n");

    fprintf(out, "  Latency     %10s %10s %10s %10s\n", "Mean", "Stdev", "Min", "Max");
    fprintf(out, "              %10s %10s %10s %10s\n", units_format_us(a, sizeof(a), hist_mean(h)),
            units_format_us(b, sizeof(b), hist_stdev(h)),
            units_format_us(d, sizeof(d), (double)(h->total ? h->min : 0)),
            units_format_us(e, sizeof(e), (double)h->max));
    const censor_t *cohort = &r->cohort;
    uint64_t censored = censor_total(cohort);
    if (censored == 0) {
        fprintf(out, "  Latency Distribution (n=%llu)\n", (unsigned long long)h->total);
        for (size_t i = 0; i < OUTPUT_PERCENTILE_COUNT; i++) {
            double p = output_percentiles[i].percentile;
            if (output_estimable(h->total, p))
                fprintf(out, "  %7s %10s\n", output_percentiles[i].label,
                        units_format_us(a, sizeof(a), (double)hist_percentile(h, p)));
            else
                fprintf(out, "  %7s %10s\n", output_percentiles[i].label, "too few");
        }
    } else {
        fprintf(out, "  Latency Distribution %12s %14s\n", "completed", "all requests");
        for (size_t i = 0; i < OUTPUT_PERCENTILE_COUNT; i++) {
            double p = output_percentiles[i].percentile;
            int bound;
            uint64_t all = censor_percentile(cohort, p, &bound);
            char marked[48];
            if (output_estimable(censor_requests(cohort), p))
                snprintf(marked, sizeof(marked), "%s%s", bound ? ">= " : "", units_format_us(b, sizeof(b), (double)all));
            else
                snprintf(marked, sizeof(marked), "too few");
            fprintf(out, "  %7s %25s %14s\n", output_percentiles[i].label,
                    output_estimable(h->total, p) ? units_format_us(a, sizeof(a), (double)hist_percentile(h, p))
                                                  : "too few",
                    marked);
        }
        fprintf(out, "  (completed: the %llu responses in the window; all requests: the %llu requests of the window, "
                     "%llu of them censored, '>=' a lower bound: %llu timed out after %s, %llu in flight and %llu "
                     "never sent when the run stopped; 'too few': fewer than %d requests beyond the percentile)\n",
                (unsigned long long)h->total, (unsigned long long)censor_requests(cohort), (unsigned long long)censored,
                (unsigned long long)cohort->count[CENSOR_TIMEOUT],
                units_format_us(a, sizeof(a), (double)cfg->timeout_ns / 1e3),
                (unsigned long long)cohort->count[CENSOR_IN_FLIGHT], (unsigned long long)cohort->count[CENSOR_UNSENT],
                OUTPUT_TAIL_REQUESTS);
    }

    fprintf(out, "  %llu requests in %.2fs, %s read\n", (unsigned long long)c->requests, r->duration_s,
            units_format_bytes(a, sizeof(a), (double)c->bytes));
    fprintf(out, "  Status:");
    int any = 0;
    for (int s = 0; s < WORKER_STATUS_CODES; s++) {
        if (c->status[s]) {
            fprintf(out, " %d x %llu", s, (unsigned long long)c->status[s]);
            any = 1;
        }
    }
    fprintf(out, "%s\n", any ? "" : " none");
    fprintf(out, "  Reconnects: %llu (server closed after a complete response)\n", (unsigned long long)c->reconnects);
    if (cfg->rate_per_s > 0)
        fprintf(out, "  Scheduled: %llu in the window; unsent: %llu (due in it, never sent: every "
                     "connection busy)\n",
                (unsigned long long)c->scheduled, (unsigned long long)c->unsent);
    fprintf(out, "  Errors: connect %llu, read %llu, write %llu, timeout %llu, malformed %llu, check %llu\n",
            (unsigned long long)c->err_connect, (unsigned long long)c->err_read, (unsigned long long)c->err_write,
            (unsigned long long)c->err_timeout, (unsigned long long)c->err_malformed,
            (unsigned long long)c->err_check);
    double secs = r->duration_s > 0 ? r->duration_s : 1;
    mix_human(out, cfg, r->endpoints, r->duration_s);
    fprintf(out, "Requests/sec: %12.2f\n", (double)c->requests / secs);
    fprintf(out, "Transfer/sec: %12s\n", units_format_bytes(a, sizeof(a), (double)c->bytes / secs));
    fprintf(out, "Client CPU:   %.2fs user, %.2fs sys", r->user_s, r->sys_s);
    if (c->requests)
        fprintf(out, " (%.2fus per request)", (r->user_s + r->sys_s) * 1e6 / (double)c->requests);
    fprintf(out, "\n");

    const series_t *s = &r->series;
    if (s->len && s->len <= OUTPUT_HUMAN_SERIES_MAX) {
        fprintf(out, "Series (every %.3gs):\n  %8s %10s %8s %10s %10s %10s\n", (double)s->interval_ns / 1e9, "t_s",
                "requests", "errors", "p50", "p99", "max");
        for (size_t i = 0; i < s->len; i++) {
            const series_slot_t *slot = &s->slots[i];
            const hist_t *sh = slot->latency_us;
            fprintf(out, "  %8.3g %10llu %8llu %10s %10s %10s\n", output_interval_end_s(s, i, r->duration_s),
                    (unsigned long long)slot->requests, (unsigned long long)slot->errors,
                    sh ? units_format_us(a, sizeof(a), (double)hist_percentile(sh, 50)) : "-",
                    sh ? units_format_us(b, sizeof(b), (double)hist_percentile(sh, 99)) : "-",
                    sh ? units_format_us(d, sizeof(d), (double)sh->max) : "-");
        }
    }

    output_warnings_t w;
    output_warnings(cfg, r, &w);
    for (int i = 0; i < w.count; i++)
        fprintf(out, "WARNING: %s\n", w.text[i]);
}

/* ---- JSON ------------------------------------------------------------- */

void output_json_histogram(FILE *out, const hist_t *h)
{
    size_t it = 0;
    uint64_t value, count;
    fputc('[', out);
    for (int first = 1; hist_next_bucket(h, &it, &value, &count); first = 0)
        fprintf(out, "%s[%llu,%llu]", first ? "" : ",", (unsigned long long)value, (unsigned long long)count);
    fputc(']', out);
}

void output_json_window_requests(FILE *out, const censor_t *cohort)
{
    fprintf(out, ",\"window_requests\":{\"total\":%llu,\"completed\":%llu,\"failed\":%llu,\"censored\":%llu",
            (unsigned long long)censor_requests(cohort), (unsigned long long)cohort->latency_us->total,
            (unsigned long long)censor_failed(cohort), (unsigned long long)censor_total(cohort));
    for (int k = 0; k < CENSOR_KINDS; k++)
        fprintf(out, ",\"%s\":%llu", censor_kind_name(k), (unsigned long long)cohort->count[k]);
    fputs(",\"histogram\":", out);
    output_json_histogram(out, cohort->latency_us);
    fputs(",\"censored_histogram\":", out);
    output_json_histogram(out, cohort->age_us);
    int bound[OUTPUT_PERCENTILE_COUNT + 1];
    fputs("},\"latency_all_us\":{", out);
    for (size_t i = 0; i <= OUTPUT_PERCENTILE_COUNT; i++) {
        double p = i < OUTPUT_PERCENTILE_COUNT ? output_percentiles[i].percentile : 100;
        const char *name = i < OUTPUT_PERCENTILE_COUNT ? output_percentiles[i].json_name : "max";
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", name,
                (unsigned long long)censor_percentile(cohort, p, &bound[i]));
    }
    fputs("},\"latency_all_censored\":{", out);
    for (size_t i = 0; i <= OUTPUT_PERCENTILE_COUNT; i++)
        fprintf(out, "%s\"%s\":%s", i ? "," : "",
                i < OUTPUT_PERCENTILE_COUNT ? output_percentiles[i].json_name : "max", bound[i] ? "true" : "false");
    fputc('}', out);
}

static void output_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void output_json(FILE *out, const config_t *cfg, const run_result_t *r)
{
    const worker_counts_t *c = &r->counts;
    const hist_t *h = r->latency_us;
    int threads = (uint64_t)cfg->threads > cfg->connections ? (int)cfg->connections : cfg->threads;
    double secs = r->duration_s > 0 ? r->duration_s : 0;

    fputs("{\"args\":[", out);
    for (int i = 0; i < cfg->argc; i++) {
        if (i)
            fputc(',', out);
        output_json_string(out, cfg->argv[i]);
    }
    fputs("],\"target\":", out);
    output_json_string(out, cfg->url);
    fprintf(out, ",\"transport\":\"%s\"", cfg->target.ops->name);
    fprintf(out, ",\"connections\":%llu,\"threads\":%d", (unsigned long long)cfg->connections, threads);
    fprintf(out, ",\"mode\":\"%s\"", cfg->rate_per_s > 0 ? "open" : "closed");
    if (cfg->rate_per_s > 0)
        fprintf(out, ",\"target_rate_per_s\":%.3f", cfg->rate_per_s);
    else
        fputs(",\"target_rate_per_s\":null", out);
    fprintf(out, ",\"latency_origin\":\"%s\"", cfg->rate_per_s > 0 ? "scheduled" : "issued");
    if (cfg->rate_per_s > 0)
        fprintf(out, ",\"arrivals\":\"%s\",\"seed\":%llu", schedule_arrivals_name(cfg->arrivals),
                (unsigned long long)cfg->seed);
    else
        fputs(",\"arrivals\":null,\"seed\":null", out);
    fprintf(out, ",\"warmup_s\":%.6f,\"duration_s\":%.6f,\"timeout_s\":%.6f,\"interval_s\":%.6f,\"grace_s\":%.6f",
            (double)cfg->warmup_ns / 1e9, secs, (double)cfg->timeout_ns / 1e9, (double)cfg->interval_ns / 1e9,
            (double)cfg->grace_ns / 1e9);
    fprintf(out, ",\"requests\":%llu,\"bytes\":%llu", (unsigned long long)c->requests, (unsigned long long)c->bytes);
    fprintf(out, ",\"requests_per_s\":%.3f,\"bytes_per_s\":%.3f", secs > 0 ? (double)c->requests / secs : 0.0,
            secs > 0 ? (double)c->bytes / secs : 0.0);
    fprintf(out, ",\"reconnects\":%llu", (unsigned long long)c->reconnects);
    fprintf(out, ",\"unsent\":%llu,\"stalled\":%s", (unsigned long long)c->unsent, r->stalled ? "true" : "false");
    if (cfg->rate_per_s > 0)
        fprintf(out, ",\"scheduled\":%llu", (unsigned long long)c->scheduled);
    else
        fputs(",\"scheduled\":null", out);
    fprintf(out,
            ",\"errors\":{\"connect\":%llu,\"read\":%llu,\"write\":%llu,\"timeout\":%llu,\"malformed\":%llu,"
            "\"check\":%llu}",
            (unsigned long long)c->err_connect, (unsigned long long)c->err_read, (unsigned long long)c->err_write,
            (unsigned long long)c->err_timeout, (unsigned long long)c->err_malformed,
            (unsigned long long)c->err_check);
    fputs(",\"status_counts\":{", out);
    int first = 1;
    for (int s = 0; s < WORKER_STATUS_CODES; s++) {
        if (c->status[s]) {
            fprintf(out, "%s\"%d\":%llu", first ? "" : ",", s, (unsigned long long)c->status[s]);
            first = 0;
        }
    }
    fputc('}', out);
    fprintf(out, ",\"latency_censored\":%llu", (unsigned long long)censor_total(&r->cohort));
    fprintf(out, ",\"latency_us\":{\"mean\":%.3f,\"stdev\":%.3f,\"min\":%llu,\"max\":%llu", hist_mean(h),
            hist_stdev(h), (unsigned long long)(h->total ? h->min : 0), (unsigned long long)h->max);
    for (size_t i = 0; i < OUTPUT_PERCENTILE_COUNT; i++)
        fprintf(out, ",\"%s\":%llu", output_percentiles[i].json_name,
                (unsigned long long)hist_percentile(h, output_percentiles[i].percentile));
    fputs("},\"histogram\":", out);
    output_json_histogram(out, h);
    output_json_window_requests(out, &r->cohort);
    fputs(",\"series\":[", out);
    const series_t *s = &r->series;
    for (size_t i = 0; i < s->len; i++) {
        const series_slot_t *slot = &s->slots[i];
        const hist_t *sh = slot->latency_us;
        fprintf(out,
                "%s{\"t_s\":%.6f,\"requests\":%llu,\"errors\":%llu,\"p50_us\":%llu,\"p99_us\":%llu,\"max_us\":%llu}",
                i ? "," : "", output_interval_end_s(s, i, r->duration_s), (unsigned long long)slot->requests,
                (unsigned long long)slot->errors, (unsigned long long)(sh ? hist_percentile(sh, 50) : 0),
                (unsigned long long)(sh ? hist_percentile(sh, 99) : 0), (unsigned long long)(sh ? sh->max : 0));
    }
    fprintf(out, "],\"client_cpu\":{\"user_s\":%.6f,\"sys_s\":%.6f,\"max_thread_share\":%.4f}", r->user_s, r->sys_s,
            r->max_thread_cpu_share);
    fprintf(out, ",\"max_rss_bytes\":%llu", (unsigned long long)r->max_rss_kb * 1024ULL);
    mix_json(out, cfg, r->endpoints, secs);
    output_warnings_t w;
    output_warnings(cfg, r, &w);
    fputs(",\"warnings\":[", out);
    for (int i = 0; i < w.count; i++) {
        if (i)
            fputc(',', out);
        output_json_string(out, w.text[i]);
    }
    fputs("]}\n", out);
}
