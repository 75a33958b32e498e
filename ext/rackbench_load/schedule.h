/*
 * schedule.h - the open loop's send times and the run's stall deadline.
 *
 * Slot k of a schedule is due at start_ns + k * interval_ns (truncated to
 * whole nanoseconds); the worker takes slots in order, so the slots it
 * never took before the counted window closed are the requests that were
 * due but never sent (every connection was busy).
 */
#ifndef RACKBENCH_SCHEDULE_H
#define RACKBENCH_SCHEDULE_H

#include <stdint.h>

/* Without -d, a run with -n ends after this long without a response, at least. */
#define SCHEDULE_MIN_STALL_NS (10ULL * 1000000000ULL)

/* schedule_slot_ns - the time slot k is due. */
uint64_t schedule_slot_ns(uint64_t start_ns, double interval_ns, uint64_t k);

/*
 * schedule_due_between - how many slots numbered first_k or later are due
 * in [from_ns, to_ns). 0 when to_ns <= from_ns.
 */
uint64_t schedule_due_between(uint64_t start_ns, double interval_ns, uint64_t first_k, uint64_t from_ns,
                              uint64_t to_ns);

/*
 * schedule_stall_ns - how long a run without a duration may go without a
 * complete response before it is ended: given_ns if set (> 0), else twice
 * the request timeout, and never less than SCHEDULE_MIN_STALL_NS.
 */
uint64_t schedule_stall_ns(uint64_t timeout_ns, uint64_t given_ns);

/* schedule_stalled - 1 when nothing has completed since last_progress_ns for stall_ns. */
int schedule_stalled(uint64_t last_progress_ns, uint64_t now_ns, uint64_t stall_ns);

#endif
