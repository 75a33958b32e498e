/* test_schedule.c - open-loop slots due in a window, unsent counts, the stall deadline. */
#include "schedule.h"
#include "test.h"

#define MS 1000000ULL
#define S 1000000000ULL

int main(void)
{
    /* 1000/s from t=0: slot k at k ms */
    CHECK_EQ_U(schedule_slot_ns(0, 1e6, 0), 0);
    CHECK_EQ_U(schedule_slot_ns(5 * S, 1e6, 250), 5 * S + 250 * MS);

    /* a 1 s window after a 1 s warm-up holds slots 1000..1999 */
    CHECK_EQ_U(schedule_due_between(0, 1e6, 0, 1 * S, 2 * S), 1000);
    /* the window's end is exclusive, its start inclusive */
    CHECK_EQ_U(schedule_due_between(0, 1e6, 0, 1 * S, 1 * S + 1), 1);
    CHECK_EQ_U(schedule_due_between(0, 1e6, 0, 1 * S + 1, 1 * S + 1 * MS), 0);
    CHECK_EQ_U(schedule_due_between(0, 1e6, 0, 2 * S, 1 * S), 0);

    /* unsent: slots from the next one not taken on; 1500 taken of a window of 1000..1999 */
    CHECK_EQ_U(schedule_due_between(0, 1e6, 1500, 1 * S, 2 * S), 500);
    /* all taken: nothing unsent; none taken yet: the whole window */
    CHECK_EQ_U(schedule_due_between(0, 1e6, 2000, 1 * S, 2 * S), 0);
    CHECK_EQ_U(schedule_due_between(0, 1e6, 0, 1 * S, 2 * S), 1000);

    /* a fractional interval (3000/s over 7 threads) counts the same slots slot_ns does */
    double interval = 1e9 / (3000.0 / 7.0);
    uint64_t counted = 0;
    for (uint64_t k = 0; schedule_slot_ns(0, interval, k) < 3 * S; k++)
        if (schedule_slot_ns(0, interval, k) >= 1 * S)
            counted++;
    CHECK_EQ_U(schedule_due_between(0, interval, 0, 1 * S, 3 * S), counted);

    /* the stall deadline: given, twice the timeout, or the minimum */
    CHECK_EQ_U(schedule_stall_ns(2 * S, 3 * S), 3 * S);
    CHECK_EQ_U(schedule_stall_ns(30 * S, 0), 60 * S);
    CHECK_EQ_U(schedule_stall_ns(2 * S, 0), SCHEDULE_MIN_STALL_NS);
    CHECK(!schedule_stalled(10 * S, 10 * S + 999 * MS, 1 * S));
    CHECK(schedule_stalled(10 * S, 11 * S, 1 * S));
    CHECK(!schedule_stalled(10 * S, 9 * S, 1 * S)); /* progress published after now was read */

    return test_summary("schedule");
}
