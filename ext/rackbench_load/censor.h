/*
 * censor.h - the window's requests, every one of them: completed latencies
 * and right-censored ages.
 *
 * The requests of a window are those scheduled in it (open loop) or issued
 * in it (closed loop). Each ends one of three ways: completed (its latency
 * is known), failed (an error: no latency), or without a response when the
 * run stopped: timed out, still in flight, or (open loop) due and never
 * sent. Such a request has no latency, only an age: its latency is at least
 * that. Leaving it out describes the lucky ones; here it enters a histogram
 * of ages beside the completed latencies (same shape), and percentiles are
 * taken over both:
 *
 *     censor_t c;  censor_init(&c);
 *     censor_issue(&c);  ...  censor_complete(&c, latency_us);
 *     censor_record(&c, CENSOR_IN_FLIGHT, stop_us - sent_us);
 *     int bound;
 *     uint64_t p99 = censor_percentile(&c, 99, &bound);
 *     (bound: p99 is a lower bound, "p99 >= 3.2 s")
 *
 * The value at a percentile's rank in the union of both histograms is a
 * lower bound of the true percentile (a censored request can only be slower
 * than its age); it is exact when at least that rank's number of completed
 * latencies lie at or below it. Counts and histograms merge exactly
 * (threads, endpoints).
 */
#ifndef RACKBENCH_CENSOR_H
#define RACKBENCH_CENSOR_H

#include <stdint.h>

#include "hist.h"

enum censor_kind {
    CENSOR_TIMEOUT,   /* no complete response within --timeout: censored at its age then */
    CENSOR_IN_FLIGHT, /* issued, no complete response when the run stopped */
    CENSOR_UNSENT,    /* open loop: due in the window, never sent */
    CENSOR_KINDS
};

typedef struct censor {
    uint64_t issued;             /* requests of the window sent (or, closed loop, issued) */
    uint64_t count[CENSOR_KINDS];
    hist_t *latency_us;          /* completed requests' latencies, HIST_LATENCY shape */
    hist_t *age_us;              /* censored requests' ages, the same shape */
} censor_t;

/* censor_init - empty counts and histograms. Returns 0, or -1 when out of memory. */
int censor_init(censor_t *c);

/* censor_free - release the histograms; the struct may be initialized again. */
void censor_free(censor_t *c);

/* censor_issue - one request of the window issued (sent, or about to be). */
void censor_issue(censor_t *c);

/* censor_withdraw - an issued request taken back: the run ended by its count (-n) before it was answered. */
void censor_withdraw(censor_t *c);

/* censor_complete - one request of the window completed after latency_us. */
void censor_complete(censor_t *c, uint64_t latency_us);

/* censor_record - one request of `kind` (enum censor_kind) censored at age_us. */
void censor_record(censor_t *c, int kind, uint64_t age_us);

/* censor_merge - add src into dst. Returns 0, or -1 when the histograms differ in shape. */
int censor_merge(censor_t *dst, const censor_t *src);

/* censor_total - the number of censored requests of every kind. */
uint64_t censor_total(const censor_t *c);

/* censor_requests - every request of the window: issued and never sent (unsent). */
uint64_t censor_requests(const censor_t *c);

/* censor_failed - requests of the window that ended in an error (neither completed nor censored). */
uint64_t censor_failed(const censor_t *c);

/*
 * censor_percentile - the value at `percentile` (0..100) of completed and
 * censored latencies together. Sets *bound to 1 when the value is a lower
 * bound (the rank falls among censored requests), else 0. Returns 0 when
 * both are empty.
 */
uint64_t censor_percentile(const censor_t *c, double percentile, int *bound);

/* censor_kind_name - "timeout", "in_flight" or "unsent". */
const char *censor_kind_name(int kind);

#endif
