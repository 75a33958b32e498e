/*
 * mix.h - a weighted traffic mix: several endpoints served at once, each
 * with its own requests, checks, latency histogram and error counts.
 *
 *     rackbench-load URL --endpoint home --weight 80 --path / \
 *                        --endpoint create --weight 5 -m POST --body '{}' --expect-status 201
 *
 * The request options (-m, -H, --body, --path, --expect-*) given before the
 * first --endpoint are defaults of every endpoint (headers add up); after an
 * --endpoint they belong to it. Each thread picks endpoints by smooth
 * weighted round robin (exact shares, no randomness) and an endpoint's
 * paths in turn, or at random with --path-order random (seeded by --seed).
 * An endpoint may be HEAD: its responses are read without a body.
 */
#ifndef RACKBENCH_MIX_H
#define RACKBENCH_MIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "answer.h"
#include "censor.h"
#include "hist.h"
#include "json.h"

struct config;

#define MIX_MAX_ENDPOINTS 64

typedef struct mix_endpoint {
    const char *name;
    uint64_t weight;
    const char *method;
    const char *body;
    size_t body_len;
    const char **headers;
    int header_count;
    const char **paths;
    int path_count;
    answer_t expect;        /* its check (answer.h): its own --expect-* or the defaults' */
    char **requests;        /* serialized, one per path */
    size_t *request_lens;
    int head;               /* its method is HEAD: its responses carry no body */
    int paths_random;       /* --path-order random: its paths drawn at random, not in turn */
} mix_endpoint_t;

/* One endpoint's counted requests and errors (per thread, then merged). */
typedef struct mix_stats {
    uint64_t requests;      /* complete responses in the window */
    uint64_t err_status;    /* answers whose status it did not expect (--expect-status) */
    uint64_t err_check;     /* expected status, its --expect-body missing */
    uint64_t err_other;     /* connect, read, write, timeout, malformed while it was in flight */
    hist_t *latency_us;     /* latencies of responses counted in the window */
    censor_t cohort;        /* its requests of the window, completed or censored (censor.h) */
} mix_stats_t;

/* A thread's weighted round robin and counts. */
typedef struct mix_worker {
    int64_t *current;
    size_t *path_next;
    uint64_t rng;           /* --path-order random: this thread's generator (mix_random) */
    mix_stats_t *stats;
} mix_worker_t;

/* main.c: --endpoint NAME starts an endpoint; returns -1 past MIX_MAX_ENDPOINTS or out of memory. */
int mix_begin(struct config *cfg, const char *name);
/* main.c: --weight N of the current endpoint; -1 without one or when N is not a whole number > 0. */
int mix_weight(struct config *cfg, const char *s);
/* main.c, after the options: close the last endpoint and serialize every endpoint's requests. */
int mix_finish(struct config *cfg);

int mix_worker_init(mix_worker_t *m, const struct config *cfg);
void mix_worker_free(mix_worker_t *m, const struct config *cfg);
/* The next endpoint to send and its request bytes. */
int mix_pick(mix_worker_t *m, const struct config *cfg, const char **req, size_t *len);
/* Endpoint e's check (answer.h). */
const answer_t *mix_expect(const struct config *cfg, int e);
/* Endpoint e's response counted in the window, with its verdict (enum answer_verdict). */
void mix_record(mix_worker_t *m, int e, uint64_t latency_us, int verdict);
/* Endpoint e's request of the window issued, and completed (censor.h). */
void mix_issue(mix_worker_t *m, int e);
void mix_withdraw(mix_worker_t *m, int e);
void mix_complete(mix_worker_t *m, int e, uint64_t latency_us);
void mix_error(mix_worker_t *m, int e);
/* Endpoint e's request of the window without a response, censored at age_us (kind: enum censor_kind). */
void mix_censor(mix_worker_t *m, int e, int kind, uint64_t age_us);

/* Merged stats of all threads: an array of cfg->endpoint_count, or NULL. */
mix_stats_t *mix_stats_new(const struct config *cfg);
void mix_stats_merge(mix_stats_t *dst, const mix_worker_t *src, const struct config *cfg);
void mix_stats_free(mix_stats_t *stats, const struct config *cfg);

/* "endpoints":[{"name":..,"weight":..,"method":..,"requests":..,"requests_per_s":..,"non_success":..,
   "errors":{"status","check","other"},"latency_us":{..},"histogram":[..],"window_requests":{..},
   "latency_all_us":{..},"latency_all_censored":{..}}] (non_success: the same count as errors.status) */
void mix_json(json_t *j, const struct config *cfg, const mix_stats_t *stats, double duration_s);
/* One line per endpoint for the human summary. */
void mix_human(FILE *out, const struct config *cfg, const mix_stats_t *stats, double duration_s);

/* splitmix64 (Steele, Lea and Flood): the next number of the generator at
 * *state; what --path-order random draws paths with (seeded: --seed + thread). */
static inline uint64_t mix_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
