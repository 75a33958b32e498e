/*
 * config.h - the run's settings, filled by main.c from the command line
 * and read (never written) by the workers and the output.
 */
#ifndef RACKBENCH_CONFIG_H
#define RACKBENCH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "clients.h"
#include "net.h"

struct mix_endpoint;

#define CONFIG_DEFAULT_CONNECTIONS 10
#define CONFIG_DEFAULT_THREADS 1
#define CONFIG_DEFAULT_DURATION_NS (10ULL * 1000000000ULL)
#define CONFIG_DEFAULT_TIMEOUT_NS (2ULL * 1000000000ULL)
#define CONFIG_DEFAULT_INTERVAL_NS (1ULL * 1000000000ULL)
#define CONFIG_DEFAULT_GRACE_NS (1ULL * 1000000000ULL)

typedef struct config {
    int argc;
    char **argv;                /* the exact arguments, for the record */
    const char *url;
    net_target_t target;
    uint64_t connections;       /* full-speed connections (-c) */
    clients_slow_t slow;        /* --slow-connections, --slow-send, --slow-read */
    int threads;
    uint64_t duration_ns;       /* counted window; UINT64_MAX with -n alone */
    uint64_t warmup_ns;         /* load applied before the counted window */
    uint64_t grace_ns;          /* after the window: how long its requests still waiting may complete */
    double rate_per_s;          /* 0: closed loop; > 0: open loop, total rate */
    int arrivals;               /* open loop: SCHEDULE_UNIFORM or SCHEDULE_POISSON (schedule.h) */
    uint64_t seed;              /* open loop, poisson: the generator's seed (thread t draws from seed + t) */
    uint64_t timeout_ns;
    uint64_t requests_limit;    /* -n: stop after this many counted; 0: none */
    uint64_t stall_ns;          /* -n alone: end the run after this long without a response */
    uint64_t interval_ns;       /* time-series interval */
    uint64_t start_at_ns;       /* --start-at: the load begins at this CLOCK_REALTIME instant; 0: at once */
    const char *method;
    const char *body;
    size_t body_len;
    const char **headers;       /* "Name: value" as given */
    int header_count;
    const char **paths;         /* --path list, taken in turn; or the URL's */
    int path_count;
    answer_t expect;            /* --expect-status, --expect-body: the check each answer is held to */
    int json;
    int allow_remote;
    int request_start;          /* --request-start: stamp each request with X-Request-Start */
    int head_request;           /* method is HEAD: responses carry no body */
    int paths_random;           /* --path-order random: each request's path drawn at random (seeded), not in turn */
    /* the serialized requests, one per path */
    char **requests;
    size_t *request_lens;
    int request_count;
    /* --endpoint: a weighted mix (mix.h); 0 endpoints: the requests above */
    struct mix_endpoint *endpoints;
    int endpoint_count;
} config_t;

/* Every connection: the full-speed ones and the slow ones. */
static inline uint64_t config_connections(const config_t *cfg)
{
    return cfg->connections + cfg->slow.connections;
}

#endif
