/*
 * output.c - see output.h.
 */
#include "output.h"

#include <string.h>

#include "figures.h"
#include "json.h"
#include "mix.h"
#include "schedule.h"
#include "units.h"
#include "warnings.h"

/* The end of series interval i, in seconds: the last one may end early with the run. */
static double output_interval_end_s(const series_t *s, size_t i, double duration_s)
{
    double end = (double)(i + 1) * (double)s->interval_ns / 1e9;
    return end > duration_s && duration_s > 0 ? duration_s : end;
}

/* How many of count requests lie beyond percentile: the count a reader needs to judge it. */
static uint64_t output_beyond(uint64_t count, double percentile)
{
    return (uint64_t)((double)count * (100.0 - percentile) / 100.0);
}

static int output_threads(const config_t *cfg)
{
    return (uint64_t)cfg->threads > config_connections(cfg) ? (int)config_connections(cfg) : cfg->threads;
}

/* ---- human ------------------------------------------------------------ */

static void output_human_head(FILE *out, const config_t *cfg, const run_result_t *r)
{
    const hist_t *h = r->latency_us;
    char a[32], b[32], d[32], e[32];
    fprintf(out, "Running %.2fs test @ %s", r->duration_s, cfg->url);
    if (cfg->warmup_ns)
        fprintf(out, " (after %.2fs warm-up: %llu responses, %llu errors)", (double)cfg->warmup_ns / 1e9,
                (unsigned long long)r->counts.warmup_requests, (unsigned long long)r->counts.warmup_errors);
    fprintf(out, "\n  %d threads and %llu connections, ", output_threads(cfg), (unsigned long long)cfg->connections);
    if (cfg->slow.connections)
        fprintf(out, "and %llu slow ones (closed loop), ", (unsigned long long)cfg->slow.connections);
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
}

/* Percentiles of the completed responses, each with how many requests lie beyond it. */
static void output_human_percentiles(FILE *out, const hist_t *h)
{
    char a[32];
    fprintf(out, "  Latency Distribution (n=%llu)\n", (unsigned long long)h->total);
    for (size_t i = 0; i < figures_percentile_count; i++) {
        double p = figures_percentiles[i].percentile;
        fprintf(out, "  %7s %10s %9llu beyond\n", figures_percentiles[i].label,
                units_format_us(a, sizeof(a), (double)hist_percentile(h, p)),
                (unsigned long long)output_beyond(h->total, p));
    }
}

/* Completed responses beside all the window's requests, censored ones as lower bounds ('>='). */
static void output_human_censored(FILE *out, const config_t *cfg, const run_result_t *r)
{
    const hist_t *h = r->latency_us;
    const censor_t *cohort = &r->cohort;
    char a[32], b[32];
    fprintf(out, "  Latency Distribution %12s %8s %14s %8s\n", "completed", "beyond", "all requests", "beyond");
    for (size_t i = 0; i < figures_percentile_count; i++) {
        double p = figures_percentiles[i].percentile;
        int bound;
        uint64_t all = censor_percentile(cohort, p, &bound);
        char marked[48];
        snprintf(marked, sizeof(marked), "%s%s", bound ? ">= " : "", units_format_us(b, sizeof(b), (double)all));
        fprintf(out, "  %7s %25s %8llu %14s %8llu\n", figures_percentiles[i].label,
                units_format_us(a, sizeof(a), (double)hist_percentile(h, p)),
                (unsigned long long)output_beyond(h->total, p), marked,
                (unsigned long long)output_beyond(censor_requests(cohort), p));
    }
    fprintf(out, "  (completed: the %llu responses in the window; all requests: the %llu requests of the window, "
                 "%llu of them censored, '>=' a lower bound: %llu timed out after %s, %llu in flight and %llu "
                 "never sent when the run stopped; beyond: the requests past each percentile)\n",
            (unsigned long long)h->total, (unsigned long long)censor_requests(cohort),
            (unsigned long long)censor_total(cohort), (unsigned long long)cohort->count[CENSOR_TIMEOUT],
            units_format_us(a, sizeof(a), (double)cfg->timeout_ns / 1e3),
            (unsigned long long)cohort->count[CENSOR_IN_FLIGHT], (unsigned long long)cohort->count[CENSOR_UNSENT]);
}

static void output_human_counts(FILE *out, const config_t *cfg, const run_result_t *r)
{
    const worker_counts_t *c = &r->counts;
    char a[32], b[32];
    fprintf(out, "  %llu requests in %.2fs, %s read\n", (unsigned long long)c->requests, r->duration_s,
            units_format_bytes(a, sizeof(a), (double)c->bytes));
    if (c->body_bytes != c->decoded_bytes || c->gzip_responses)
        fprintf(out, "  Bodies: %s as sent, %s decoded (%llu gzip responses)\n",
                units_format_bytes(a, sizeof(a), (double)c->body_bytes),
                units_format_bytes(b, sizeof(b), (double)c->decoded_bytes), (unsigned long long)c->gzip_responses);
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
    fprintf(out, "  Errors: connect %llu, read %llu, write %llu, timeout %llu, malformed %llu, status %llu, check %llu\n",
            (unsigned long long)c->err_connect, (unsigned long long)c->err_read, (unsigned long long)c->err_write,
            (unsigned long long)c->err_timeout, (unsigned long long)c->err_malformed,
            (unsigned long long)c->err_status, (unsigned long long)c->err_check);
}

/* Fast and slow clients apart, when there are slow ones. */
static void output_human_clients(FILE *out, const config_t *cfg, const run_result_t *r)
{
    if (!cfg->slow.connections)
        return;
    static const char *names[CLIENTS_GROUPS] = {"fast", "slow"};
    uint64_t connections[CLIENTS_GROUPS] = {cfg->connections, cfg->slow.connections};
    char a[32], b[32];
    fprintf(out, "  Clients (connections, requests/sec, p50, p99, errors):\n");
    for (int g = 0; g < CLIENTS_GROUPS; g++) {
        const clients_stats_t *s = &r->clients[g];
        fprintf(out, "    %-6s %6llu %12.2f %10s %10s %8llu\n", names[g], (unsigned long long)connections[g],
                figures_per_s(s->requests, r->duration_s),
                units_format_us(a, sizeof(a), (double)hist_percentile(s->latency_us, 50)),
                units_format_us(b, sizeof(b), (double)hist_percentile(s->latency_us, 99)),
                (unsigned long long)(s->err_status + s->err_check + s->err_other));
    }
    const clients_stats_t *slow = &r->clients[CLIENTS_SLOW];
    if (slow->send_ns)
        fprintf(out, "  Slow clients sent at %.0f bytes/s (%.0f asked)\n",
                (double)slow->send_bytes * 1e9 / (double)slow->send_ns, cfg->slow.send_bytes_per_s);
    if (slow->read_ns)
        fprintf(out, "  Slow clients read at %.0f bytes/s (%.0f asked)\n",
                (double)slow->read_bytes * 1e9 / (double)slow->read_ns, cfg->slow.read_bytes_per_s);
}

static void output_human_rates(FILE *out, const run_result_t *r)
{
    const worker_counts_t *c = &r->counts;
    char a[32];
    double secs = r->duration_s > 0 ? r->duration_s : 1;
    fprintf(out, "Requests/sec: %12.2f\n", (double)c->requests / secs);
    fprintf(out, "Transfer/sec: %12s\n", units_format_bytes(a, sizeof(a), (double)c->bytes / secs));
    fprintf(out, "Client CPU:   %.2fs user, %.2fs sys", r->user_s, r->sys_s);
    if (c->requests)
        fprintf(out, " (%.2fus per request)", (r->user_s + r->sys_s) * 1e6 / (double)c->requests);
    fprintf(out, "\n");
}

static void output_human_series(FILE *out, const run_result_t *r)
{
    const series_t *s = &r->series;
    char a[32], b[32], d[32];
    if (!s->len || s->len > OUTPUT_HUMAN_SERIES_MAX)
        return;
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

void output_human(FILE *out, const config_t *cfg, const run_result_t *r)
{
    output_human_head(out, cfg, r);
    if (censor_total(&r->cohort) == 0)
        output_human_percentiles(out, r->latency_us);
    else
        output_human_censored(out, cfg, r);
    output_human_counts(out, cfg, r);
    output_human_clients(out, cfg, r);
    mix_human(out, cfg, r->endpoints, r->duration_s);
    output_human_rates(out, r);
    output_human_series(out, r);
    warnings_t w;
    warnings_collect(cfg, r, &w);
    for (int i = 0; i < w.count; i++)
        fprintf(out, "WARNING: %s\n", w.list[i].text);
}

/* ---- JSON ------------------------------------------------------------- */

/* How the run was asked for: the arguments, the target, the loop and its timings. */
static void output_json_settings(json_t *j, const config_t *cfg, double secs)
{
    int open = cfg->rate_per_s > 0;
    json_open_array(j, "args");
    for (int i = 0; i < cfg->argc; i++)
        json_string(j, NULL, cfg->argv[i]);
    json_close_array(j);
    json_string(j, "target", cfg->url);
    json_string(j, "transport", cfg->target.ops->name);
    json_uint(j, "connections", cfg->connections);
    json_uint(j, "threads", (uint64_t)output_threads(cfg));
    json_string(j, "mode", open ? "open" : "closed");
    if (open)
        json_real(j, "target_rate_per_s", cfg->rate_per_s, 3);
    else
        json_null(j, "target_rate_per_s");
    json_string(j, "latency_origin", open ? "scheduled" : "issued");
    if (open) {
        json_string(j, "arrivals", schedule_arrivals_name(cfg->arrivals));
        json_uint(j, "seed", cfg->seed);
    } else {
        json_null(j, "arrivals");
        json_null(j, "seed");
    }
    json_real(j, "warmup_s", (double)cfg->warmup_ns / 1e9, 6);
    json_real(j, "duration_s", secs, 6);
    json_real(j, "timeout_s", (double)cfg->timeout_ns / 1e9, 6);
    json_real(j, "interval_s", (double)cfg->interval_ns / 1e9, 6);
    json_real(j, "grace_s", (double)cfg->grace_ns / 1e9, 6);
}

/* What was counted: requests, bytes (on the wire, bodies as sent and decoded), errors and statuses. */
static void output_json_counts(json_t *j, const config_t *cfg, const run_result_t *r, double secs)
{
    const worker_counts_t *c = &r->counts;
    json_uint(j, "requests", c->requests);
    json_uint(j, "bytes", c->bytes);
    json_real(j, "requests_per_s", figures_per_s(c->requests, secs), 3);
    json_real(j, "bytes_per_s", figures_per_s(c->bytes, secs), 3);
    json_uint(j, "sent_bytes", c->sent_bytes);
    json_uint(j, "body_bytes", c->body_bytes);
    json_uint(j, "decoded_bytes", c->decoded_bytes);
    json_uint(j, "gzip_responses", c->gzip_responses);
    json_uint(j, "reconnects", c->reconnects);
    json_uint(j, "unsent", c->unsent);
    json_uint(j, "warmup_requests", c->warmup_requests);
    json_uint(j, "warmup_errors", c->warmup_errors);
    json_bool(j, "stalled", r->stalled);
    if (cfg->rate_per_s > 0)
        json_uint(j, "scheduled", c->scheduled);
    else
        json_null(j, "scheduled");
    json_open_object(j, "errors");
    json_uint(j, "connect", c->err_connect);
    json_uint(j, "read", c->err_read);
    json_uint(j, "write", c->err_write);
    json_uint(j, "timeout", c->err_timeout);
    json_uint(j, "malformed", c->err_malformed);
    json_uint(j, "check", c->err_check);
    json_uint(j, "status", c->err_status);
    json_close_object(j);
    json_open_object(j, "status_counts");
    char code[8];
    for (int s = 0; s < WORKER_STATUS_CODES; s++) {
        if (c->status[s]) {
            snprintf(code, sizeof(code), "%d", s);
            json_uint(j, code, c->status[s]);
        }
    }
    json_close_object(j);
}

static void output_json_series(json_t *j, const run_result_t *r)
{
    const series_t *s = &r->series;
    json_open_array(j, "series");
    for (size_t i = 0; i < s->len; i++) {
        const series_slot_t *slot = &s->slots[i];
        const hist_t *sh = slot->latency_us;
        json_open_object(j, NULL);
        json_real(j, "t_s", output_interval_end_s(s, i, r->duration_s), 6);
        json_uint(j, "requests", slot->requests);
        json_uint(j, "errors", slot->errors);
        json_uint(j, "p50_us", sh ? hist_percentile(sh, 50) : 0);
        json_uint(j, "p99_us", sh ? hist_percentile(sh, 99) : 0);
        json_uint(j, "max_us", sh ? sh->max : 0);
        json_close_object(j);
    }
    json_close_array(j);
}

/* The warnings twice: as sentences ("warnings", as ever) and as codes with their figures. */
static void output_json_warnings(json_t *j, const config_t *cfg, const run_result_t *r)
{
    warnings_t w;
    warnings_collect(cfg, r, &w);
    json_open_array(j, "warnings");
    for (int i = 0; i < w.count; i++)
        json_string(j, NULL, w.list[i].text);
    json_close_array(j);
    json_open_array(j, "warning_codes");
    for (int i = 0; i < w.count; i++) {
        const warning_t *one = &w.list[i];
        json_open_object(j, NULL);
        json_string(j, "code", one->code);
        for (int f = 0; f < one->field_count; f++) {
            const warning_field_t *field = &one->fields[f];
            if (field->decimals)
                json_real(j, field->name, field->value, field->decimals);
            else
                json_uint(j, field->name, (uint64_t)field->value);
        }
        json_close_object(j);
    }
    json_close_array(j);
}

void output_json(FILE *out, const config_t *cfg, const run_result_t *r)
{
    double secs = r->duration_s > 0 ? r->duration_s : 0;
    json_t j;
    json_init(&j, out);
    json_open_object(&j, NULL);
    output_json_settings(&j, cfg, secs);
    output_json_counts(&j, cfg, r, secs);
    json_uint(&j, "latency_censored", censor_total(&r->cohort));
    figures_json_latency(&j, "latency_us", r->latency_us, FIGURES_LATENCY_FULL);
    figures_json_histogram(&j, "histogram", r->latency_us);
    figures_json_window_requests(&j, &r->cohort);
    output_json_series(&j, r);
    json_open_object(&j, "client_cpu");
    json_real(&j, "user_s", r->user_s, 6);
    json_real(&j, "sys_s", r->sys_s, 6);
    json_real(&j, "max_thread_share", r->max_thread_cpu_share, 4);
    json_real(&j, "wait_s", r->wait_s, 6);
    json_close_object(&j);
    json_uint(&j, "max_rss_bytes", r->max_rss_kb * 1024ULL);
    if (cfg->start_at_ns)
        json_real(&j, "start_late_s", r->start_late_s, 6);
    if (cfg->slow.connections)
        clients_json(&j, r->clients, cfg->connections, &cfg->slow, secs);
    mix_json(&j, cfg, r->endpoints, secs);
    output_json_warnings(&j, cfg, r);
    json_close_object(&j);
    fputc('\n', out);
}
