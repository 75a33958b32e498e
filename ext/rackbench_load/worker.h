/*
 * worker.h - the load: T threads, each an epoll loop over its share of
 * the N connections.
 *
 * Closed loop: a connection sends its next request as soon as the
 * previous response is complete; latency runs from that moment (so a
 * reconnect forced by the server is part of the next request's latency)
 * to the last byte of the response.
 * Open loop (--rate): each thread owns a schedule of send times at its
 * share of the rate; a due request goes out on any idle connection, and
 * its latency runs from its scheduled time, so waiting behind a stalled
 * server counts (coordinated omission corrected, as wrk2 does).
 *
 * Timeline: start -> warm-up (load, nothing counted) -> counted window
 * [measure_start, measure_end) -> grace -> stop. Requests, errors and
 * latency_us are counted by the time they complete or happen in the
 * window (throughput). Separately, the window's requests (scheduled in it,
 * open loop; issued in it, closed loop) are followed to their end
 * (censor.h): after the window closes, for at most --grace, nothing new is
 * issued but the window's requests still waiting are sent and answered;
 * those without a response when the run stops are censored at their age
 * then, as is one that timed out. A run that reached its -n count censors
 * none in flight (the count was the run's end), and has no grace.
 */
#ifndef RACKBENCH_WORKER_H
#define RACKBENCH_WORKER_H

#include <stdint.h>

#include "censor.h"
#include "clients.h"
#include "config.h"
#include "hist.h"
#include "mix.h"
#include "series.h"

#define WORKER_STATUS_CODES 600
/* Requests longer than this get TCP_NODELAY (they may need several writes). */
#define WORKER_NODELAY_MIN_REQUEST_BYTES 1400

typedef struct worker_counts {
    uint64_t requests;      /* complete responses (whatever the status) */
    uint64_t bytes;         /* bytes read */
    uint64_t sent_bytes;    /* bytes written */
    uint64_t body_bytes;    /* the completed responses' bodies as sent (compressed when encoded) */
    uint64_t decoded_bytes; /* the same bodies decoded (http_parser_decoded_bytes) */
    uint64_t gzip_responses;   /* responses with Content-Encoding: gzip */
    uint64_t undecoded;     /* responses whose decoded size is unknown (another coding, or a gzip body without its trailer) */
    uint64_t reconnects;    /* server closed cleanly after a complete response */
    uint64_t err_connect;
    uint64_t err_read;      /* reset, or closed mid-response */
    uint64_t err_write;
    uint64_t err_timeout;   /* no complete response within --timeout (latency censored) */
    uint64_t err_malformed; /* not HTTP, or bytes after the response */
    uint64_t err_status;    /* the answer's status was not expected (--expect-status) */
    uint64_t err_check;     /* expected status, --expect-body missing */
    uint64_t unsent;        /* open loop: due in the counted window, never sent (every connection busy to the end) */
    uint64_t scheduled;     /* open loop: slots due in the counted window */
    uint64_t warmup_requests; /* complete responses during the warm-up (what warmed the server; never counted) */
    uint64_t warmup_errors;   /* errors during the warm-up */
    uint64_t status[WORKER_STATUS_CODES];
} worker_counts_t;

typedef struct run_result {
    worker_counts_t counts;
    hist_t *latency_us;       /* all counted latencies */
    censor_t cohort;          /* the window's requests: completed latencies, censored ages (censor.h) */
    mix_stats_t *endpoints;   /* per endpoint of a mix (cfg->endpoint_count), or NULL */
    clients_stats_t clients[CLIENTS_GROUPS]; /* fast and slow connections apart (clients.h) */
    series_t series;
    double duration_s;        /* length of the counted window actually run */
    double user_s;            /* client CPU of the whole process */
    double sys_s;
    double max_thread_cpu_share; /* busiest thread's CPU time over its wall time */
    double wait_s;            /* the load threads' run-queue delay: runnable, waiting for a CPU */
    double start_late_s;      /* --start-at: how long after the instant the load began (0: on time) */
    uint64_t max_rss_kb;
    int interrupted;          /* stopped by SIGINT */
    int stalled;              /* -n alone: ended after cfg->stall_ns without a response */
} run_result_t;

/*
 * worker_run - run the load described by cfg and fill *out (zeroed by
 * the caller). Returns 0, or -1 with a reason in err (threads or memory
 * could not be had).
 */
int worker_run(const config_t *cfg, run_result_t *out, char *err, size_t err_size);

/* worker_stop - ask a running worker_run to stop early (async-signal-safe). */
void worker_stop(void);

#endif
