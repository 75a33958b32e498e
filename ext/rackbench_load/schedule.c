/*
 * schedule.c - the open loop's send times and the stall deadline, see schedule.h.
 */
#include "schedule.h"

uint64_t schedule_slot_ns(uint64_t start_ns, double interval_ns, uint64_t k)
{
    return start_ns + (uint64_t)((double)k * interval_ns);
}

/* The first slot due at or after t_ns (slots are non-decreasing in k). */
static uint64_t schedule_first_at(uint64_t start_ns, double interval_ns, uint64_t t_ns)
{
    if (t_ns <= start_ns)
        return 0;
    uint64_t k = (uint64_t)((double)(t_ns - start_ns) / interval_ns);
    while (k > 0 && schedule_slot_ns(start_ns, interval_ns, k - 1) >= t_ns)
        k--;
    while (schedule_slot_ns(start_ns, interval_ns, k) < t_ns)
        k++;
    return k;
}

uint64_t schedule_due_between(uint64_t start_ns, double interval_ns, uint64_t first_k, uint64_t from_ns,
                              uint64_t to_ns)
{
    if (to_ns <= from_ns || interval_ns <= 0)
        return 0;
    uint64_t lo = schedule_first_at(start_ns, interval_ns, from_ns);
    uint64_t hi = schedule_first_at(start_ns, interval_ns, to_ns);
    if (lo < first_k)
        lo = first_k;
    return hi > lo ? hi - lo : 0;
}

uint64_t schedule_stall_ns(uint64_t timeout_ns, uint64_t given_ns)
{
    if (given_ns)
        return given_ns;
    uint64_t twice = timeout_ns * 2;
    return twice > SCHEDULE_MIN_STALL_NS ? twice : SCHEDULE_MIN_STALL_NS;
}

int schedule_stalled(uint64_t last_progress_ns, uint64_t now_ns, uint64_t stall_ns)
{
    return now_ns > last_progress_ns && now_ns - last_progress_ns >= stall_ns;
}
