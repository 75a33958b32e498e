/*
 * schedule.h - the open loop's send times and the run's stall deadline.
 *
 * A schedule is the sequence of times at which requests are due, at a mean
 * rate, from start_ns on:
 *
 *   uniform   slot k at start_ns + k * interval_ns (evenly spaced, truncated
 *             to whole nanoseconds, no drift however long the run);
 *   poisson   independent users: gaps drawn from an exponential distribution
 *             of mean interval_ns, by a generator seeded with `seed`, so the
 *             same seed gives the same send times (relative to start_ns).
 *
 *     schedule_t s;
 *     schedule_init(&s, start_ns, 1000.0, SCHEDULE_POISSON, 42);
 *     while (schedule_next_ns(&s) <= now) { send(schedule_next_ns(&s)); schedule_advance(&s); }
 *
 * The worker takes slots in order, so the slots it never took before the
 * counted window closed are the requests that were due but never sent
 * (every connection was busy).
 */
#ifndef RACKBENCH_SCHEDULE_H
#define RACKBENCH_SCHEDULE_H

#include <stdint.h>

/* Without -d, a run with -n ends after this long without a response, at least. */
#define SCHEDULE_MIN_STALL_NS (10ULL * 1000000000ULL)

enum schedule_arrivals { SCHEDULE_UNIFORM, SCHEDULE_POISSON };

typedef struct schedule {
    uint64_t start_ns;
    double interval_ns;     /* mean gap between slots */
    int arrivals;           /* SCHEDULE_UNIFORM or SCHEDULE_POISSON */
    uint64_t rng[4];        /* xoshiro256** state (poisson) */
    uint64_t k;             /* number of slots taken */
    double next_offset_ns;  /* poisson: the next slot's offset from start_ns */
    uint64_t next_ns;       /* when the next slot is due */
} schedule_t;

/*
 * schedule_init - a schedule at rate_per_s (> 0) from start_ns. seed picks
 * the poisson draws (ignored for uniform); threads use different seeds.
 */
void schedule_init(schedule_t *s, uint64_t start_ns, double rate_per_s, int arrivals, uint64_t seed);

/* schedule_next_ns - when the next slot is due. */
static inline uint64_t schedule_next_ns(const schedule_t *s)
{
    return s->next_ns;
}

/* schedule_advance - take the next slot: the one after it becomes next. */
void schedule_advance(schedule_t *s);

/* schedule_slot_ns - uniform arrivals: the time slot k is due. */
uint64_t schedule_slot_ns(uint64_t start_ns, double interval_ns, uint64_t k);

/*
 * schedule_parse_arrivals - "uniform" or "poisson" to its enum value;
 * -1 for anything else.
 */
int schedule_parse_arrivals(const char *name);

/* schedule_arrivals_name - "uniform" or "poisson". */
const char *schedule_arrivals_name(int arrivals);

/*
 * schedule_stall_ns - how long a run without a duration may go without a
 * complete response before it is ended: given_ns if set (> 0), else twice
 * the request timeout, and never less than SCHEDULE_MIN_STALL_NS.
 */
uint64_t schedule_stall_ns(uint64_t timeout_ns, uint64_t given_ns);

/* schedule_stalled - 1 when nothing has completed since last_progress_ns for stall_ns. */
int schedule_stalled(uint64_t last_progress_ns, uint64_t now_ns, uint64_t stall_ns);

#endif
