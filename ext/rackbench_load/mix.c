/*
 * mix.c - see mix.h.
 */
#include "mix.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "figures.h"
#include "request.h"

/* What the options before the first --endpoint set: every endpoint starts from it. */
static mix_endpoint_t mix_defaults;

static void mix_capture(mix_endpoint_t *e, const config_t *cfg)
{
    e->method = cfg->method;
    e->body = cfg->body;
    e->body_len = cfg->body_len;
    e->header_count = cfg->header_count;
    e->headers = cfg->headers; /* copied in mix_close */
    e->paths = cfg->paths;
    e->path_count = cfg->path_count;
    e->expect = cfg->expect;
    e->paths_random = cfg->paths_random;
}

/* Put the defaults back into cfg's request fields, for the next endpoint's options. */
static void mix_restore(config_t *cfg)
{
    cfg->method = mix_defaults.method;
    cfg->body = mix_defaults.body;
    cfg->body_len = mix_defaults.body_len;
    cfg->header_count = mix_defaults.header_count;
    cfg->path_count = 0;
    cfg->expect = mix_defaults.expect;
    cfg->paths_random = mix_defaults.paths_random;
}

/* The current endpoint takes cfg's request fields (own copies of the lists). */
static int mix_close(config_t *cfg)
{
    mix_endpoint_t *e = &cfg->endpoints[cfg->endpoint_count - 1];
    const char *name = e->name;
    uint64_t weight = e->weight;
    mix_capture(e, cfg);
    e->name = name;
    e->weight = weight;
    e->headers = calloc((size_t)cfg->header_count + 1, sizeof(char *));
    e->paths = calloc((size_t)cfg->path_count + 1, sizeof(char *));
    if (!e->headers || !e->paths)
        return -1;
    memcpy(e->headers, cfg->headers, sizeof(char *) * (size_t)cfg->header_count);
    memcpy(e->paths, cfg->paths, sizeof(char *) * (size_t)cfg->path_count);
    mix_restore(cfg);
    return 0;
}

int mix_begin(config_t *cfg, const char *name)
{
    if (cfg->endpoint_count >= MIX_MAX_ENDPOINTS || !*name)
        return -1;
    if (cfg->endpoint_count == 0) {
        mix_capture(&mix_defaults, cfg);
        cfg->path_count = 0;
        cfg->endpoints = calloc(MIX_MAX_ENDPOINTS, sizeof(mix_endpoint_t));
        if (!cfg->endpoints)
            return -1;
    } else if (mix_close(cfg) < 0) {
        return -1;
    }
    mix_endpoint_t *e = &cfg->endpoints[cfg->endpoint_count++];
    e->name = name;
    e->weight = 1;
    return 0;
}

int mix_weight(config_t *cfg, const char *s)
{
    char *end;
    unsigned long long w = strtoull(s, &end, 10);
    if (cfg->endpoint_count == 0 || *end || end == s || w == 0 || w > 1000000)
        return -1;
    cfg->endpoints[cfg->endpoint_count - 1].weight = w;
    return 0;
}

int mix_finish(config_t *cfg)
{
    if (cfg->endpoint_count == 0)
        return 0;
    if (mix_close(cfg) < 0)
        return -1;
    for (int i = 0; i < cfg->endpoint_count; i++) {
        mix_endpoint_t *e = &cfg->endpoints[i];
        if (e->path_count == 0)
            e->paths[e->path_count++] = cfg->target.path;
        e->head = strcmp(e->method, "HEAD") == 0;
        e->requests = calloc((size_t)e->path_count, sizeof(char *));
        e->request_lens = calloc((size_t)e->path_count, sizeof(size_t));
        if (!e->requests || !e->request_lens)
            return -1;
        for (int p = 0; p < e->path_count; p++) {
            e->requests[p] = request_serialize(e->method, cfg->target.host, e->headers, e->header_count, e->body,
                                               e->body_len, e->paths[p], &e->request_lens[p]);
            if (!e->requests[p])
                return -1;
        }
    }
    return 0;
}

/* ---- per thread ------------------------------------------------------- */

static hist_t *mix_hist(void)
{
    return hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
}

int mix_worker_init(mix_worker_t *m, const config_t *cfg)
{
    memset(m, 0, sizeof(*m));
    if (cfg->endpoint_count == 0)
        return 0;
    m->current = calloc((size_t)cfg->endpoint_count, sizeof(int64_t));
    m->path_next = calloc((size_t)cfg->endpoint_count, sizeof(size_t));
    m->stats = mix_stats_new(cfg);
    return m->current && m->path_next && m->stats ? 0 : -1;
}

void mix_worker_free(mix_worker_t *m, const config_t *cfg)
{
    free(m->current);
    free(m->path_next);
    mix_stats_free(m->stats, cfg);
    memset(m, 0, sizeof(*m));
}

/* Smooth weighted round robin (nginx's): each endpoint gains its weight, the
 * richest is picked and pays the total; shares are exact over a cycle. */
int mix_pick(mix_worker_t *m, const config_t *cfg, const char **req, size_t *len)
{
    int64_t total = 0;
    int best = 0;
    for (int i = 0; i < cfg->endpoint_count; i++) {
        m->current[i] += (int64_t)cfg->endpoints[i].weight;
        total += (int64_t)cfg->endpoints[i].weight;
        if (m->current[i] > m->current[best])
            best = i;
    }
    m->current[best] -= total;
    const mix_endpoint_t *e = &cfg->endpoints[best];
    size_t p;
    if (e->paths_random) {
        p = (size_t)(mix_random(&m->rng) % (uint64_t)e->path_count);
    } else {
        p = m->path_next[best]++;
        if (m->path_next[best] >= (size_t)e->path_count)
            m->path_next[best] = 0;
    }
    *req = e->requests[p];
    *len = e->request_lens[p];
    return best;
}

const answer_t *mix_expect(const config_t *cfg, int e)
{
    return &cfg->endpoints[e].expect;
}

void mix_record(mix_worker_t *m, int e, uint64_t latency_us, int verdict)
{
    mix_stats_t *s = &m->stats[e];
    s->requests++;
    if (verdict == ANSWER_STATUS)
        s->err_status++;
    else if (verdict == ANSWER_CHECK)
        s->err_check++;
    hist_record(s->latency_us, latency_us);
}

void mix_issue(mix_worker_t *m, int e)
{
    censor_issue(&m->stats[e].cohort);
}

void mix_withdraw(mix_worker_t *m, int e)
{
    censor_withdraw(&m->stats[e].cohort);
}

void mix_complete(mix_worker_t *m, int e, uint64_t latency_us)
{
    censor_complete(&m->stats[e].cohort, latency_us);
}

void mix_error(mix_worker_t *m, int e)
{
    m->stats[e].err_other++;
}

void mix_censor(mix_worker_t *m, int e, int kind, uint64_t age_us)
{
    censor_record(&m->stats[e].cohort, kind, age_us);
}

/* ---- merged ----------------------------------------------------------- */

mix_stats_t *mix_stats_new(const config_t *cfg)
{
    if (cfg->endpoint_count == 0)
        return NULL;
    mix_stats_t *stats = calloc((size_t)cfg->endpoint_count, sizeof(mix_stats_t));
    for (int i = 0; stats && i < cfg->endpoint_count; i++) {
        stats[i].latency_us = mix_hist();
        if (!stats[i].latency_us || censor_init(&stats[i].cohort) < 0) {
            mix_stats_free(stats, cfg);
            return NULL;
        }
    }
    return stats;
}

void mix_stats_merge(mix_stats_t *dst, const mix_worker_t *src, const config_t *cfg)
{
    for (int i = 0; dst && src->stats && i < cfg->endpoint_count; i++) {
        dst[i].requests += src->stats[i].requests;
        dst[i].err_status += src->stats[i].err_status;
        dst[i].err_check += src->stats[i].err_check;
        dst[i].err_other += src->stats[i].err_other;
        hist_merge(dst[i].latency_us, src->stats[i].latency_us);
        censor_merge(&dst[i].cohort, &src->stats[i].cohort);
    }
}

void mix_stats_free(mix_stats_t *stats, const config_t *cfg)
{
    for (int i = 0; stats && i < cfg->endpoint_count; i++) {
        hist_free(stats[i].latency_us);
        censor_free(&stats[i].cohort);
    }
    free(stats);
}

void mix_json(json_t *j, const config_t *cfg, const mix_stats_t *stats, double duration_s)
{
    if (!stats)
        return;
    json_open_array(j, "endpoints");
    for (int i = 0; i < cfg->endpoint_count; i++) {
        const mix_endpoint_t *e = &cfg->endpoints[i];
        const mix_stats_t *s = &stats[i];
        json_open_object(j, NULL);
        json_string(j, "name", e->name);
        json_uint(j, "weight", e->weight);
        json_string(j, "method", e->method);
        json_uint(j, "requests", s->requests);
        json_real(j, "requests_per_s", figures_per_s(s->requests, duration_s), 3);
        json_uint(j, "non_success", s->err_status);
        figures_json_errors(j, s->err_status, s->err_check, s->err_other);
        figures_json_latency(j, "latency_us", s->latency_us, FIGURES_LATENCY_SHORT);
        figures_json_histogram(j, "histogram", s->latency_us);
        figures_json_window_requests(j, &s->cohort);
        json_close_object(j);
    }
    json_close_array(j);
}

void mix_human(FILE *out, const config_t *cfg, const mix_stats_t *stats, double duration_s)
{
    if (!stats)
        return;
    fprintf(out, "  Endpoints (weight, requests/sec, p50/p99 us, status and check errors, other errors):\n");
    for (int i = 0; i < cfg->endpoint_count; i++) {
        const mix_stats_t *s = &stats[i];
        fprintf(out, "    %-20s %6llu %12.2f %8llu %8llu %8llu %8llu\n", cfg->endpoints[i].name,
                (unsigned long long)cfg->endpoints[i].weight, duration_s > 0 ? (double)s->requests / duration_s : 0.0,
                (unsigned long long)hist_percentile(s->latency_us, 50),
                (unsigned long long)hist_percentile(s->latency_us, 99), (unsigned long long)(s->err_status + s->err_check),
                (unsigned long long)s->err_other);
    }
}
