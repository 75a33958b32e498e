/*
 * clients.h - the two client groups: full-speed connections (-c) and slow
 * ones (--slow-connections), which send each request at --slow-send
 * bytes/s and read each response at --slow-read bytes/s, and what each
 * group measured.
 *
 * Pacing is cumulative from the transfer's start, so it never drifts: the
 * first byte goes at once, byte k + 1 no earlier than start + k / rate, and
 * a paced connection waits, off the epoll set, until its next bytes are due
 * (the worker's tick, every 10 ms, wakes it: bytes go in steps of about
 * rate / 100). The rate held is counted, not assumed:
 * bytes moved over the time from each transfer's start to its last byte.
 *
 *     uint64_t may = clients_pace_allowed(1000.0, start_ns, now_ns);   bytes allowed by now
 *     uint64_t at = clients_pace_due_ns(1000.0, start_ns, done + 1);   when one more is
 */
#ifndef RACKBENCH_CLIENTS_H
#define RACKBENCH_CLIENTS_H

#include <stdint.h>

#include "hist.h"
#include "json.h"

enum clients_group { CLIENTS_FAST, CLIENTS_SLOW, CLIENTS_GROUPS };

/* One group's counts in the counted window (per thread, then merged). */
typedef struct clients_stats {
    uint64_t requests;        /* complete responses */
    uint64_t bytes;           /* bytes read */
    uint64_t sent_bytes;      /* bytes written */
    uint64_t err_status;      /* answers whose status was not expected (answer.h) */
    uint64_t err_check;       /* expected status, body check failed */
    uint64_t err_other;       /* connect, read, write, timeout, malformed */
    uint64_t send_bytes;      /* paced: request bytes of the group's completed responses */
    uint64_t send_ns;         /* paced: their requests' time from first to last byte written */
    uint64_t read_bytes;      /* paced: response bytes of its completed responses */
    uint64_t read_ns;         /* paced: their time from first byte readable to the last read */
    hist_t *latency_us;
} clients_stats_t;

/* clients_pace_allowed - bytes (in all) that may have moved by now_ns at bytes_per_s since start_ns: 0 before it, 1 at it. */
uint64_t clients_pace_allowed(double bytes_per_s, uint64_t start_ns, uint64_t now_ns);

/* clients_pace_due_ns - when `bytes` bytes (in all) may have moved, at bytes_per_s since start_ns. */
uint64_t clients_pace_due_ns(double bytes_per_s, uint64_t start_ns, uint64_t bytes);

/* clients_stats_init / _free / _merge - the groups' stats, CLIENTS_GROUPS of them. Init returns 0 or -1. */
int clients_stats_init(clients_stats_t *groups);
void clients_stats_free(clients_stats_t *groups);
void clients_stats_merge(clients_stats_t *dst, const clients_stats_t *src);

/* The slow group's settings, for its JSON: connections and the rates asked (0: full speed). */
typedef struct clients_slow {
    uint64_t connections;
    double send_bytes_per_s;
    double read_bytes_per_s;
} clients_slow_t;

/*
 * clients_json - "clients":{"fast":{...},"slow":{...}}: each group's
 * connections, requests, requests_per_s, bytes, sent_bytes, errors
 * {status, check, other}, latency_us, histogram; the slow group's rates asked
 * and held ("paced").
 */
void clients_json(json_t *j, const clients_stats_t *groups, uint64_t fast_connections, const clients_slow_t *slow,
                  double duration_s);

#endif
