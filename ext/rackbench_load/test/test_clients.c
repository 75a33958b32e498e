/*
 * test_clients.c - slow clients' pacing: cumulative from the start (no
 * drift), the first byte at once, and a transfer driven by the worker's
 * 10 ms tick holding the rate asked; the groups' counts merge exactly.
 */
#include "clients.h"
#include "test.h"
#include "units.h"

/* A transfer of total bytes at rate, moved whenever a tick finds bytes due (every tick_ns): when does its last byte go? */
static uint64_t paced_transfer_ns(double rate, uint64_t total, uint64_t tick_ns, int *steps)
{
    uint64_t start = 1000 * UNITS_NS_PER_S, now = start, done = 0;
    *steps = 0;
    while (done < total) {
        uint64_t allowed = clients_pace_allowed(rate, start, now);
        if (allowed > done) {
            done = allowed < total ? allowed : total;
            (*steps)++;
            if (done == total)
                break;
        }
        now += tick_ns; /* the worker's next tick */
    }
    return now - start;
}

int main(void)
{
    uint64_t s = 5 * UNITS_NS_PER_S;
    CHECK_EQ_U(clients_pace_allowed(1000, s, s - 1), 0);
    CHECK_EQ_U(clients_pace_allowed(1000, s, s), 1);                        /* the first byte at once */
    CHECK_EQ_U(clients_pace_allowed(1000, s, s + UNITS_NS_PER_S), 1001);    /* then 1,000 a second */
    CHECK_EQ_U(clients_pace_allowed(1000, s, s + 3 * UNITS_NS_PER_S / 2), 1501);
    CHECK_EQ_U(clients_pace_due_ns(1000, s, 1), s);
    CHECK_EQ_U(clients_pace_due_ns(1000, s, 1001), s + UNITS_NS_PER_S);
    CHECK_EQ_U(clients_pace_allowed(1000, s, clients_pace_due_ns(1000, s, 1234)), 1234);
    CHECK_EQ_U(clients_pace_allowed(1000, s, clients_pace_due_ns(1000, s, 1234) - 1), 1233);
    /* cumulative, no drift: an hour at 333.3 bytes/s */
    CHECK_EQ_U(clients_pace_allowed(333.3, s, s + 3600 * UNITS_NS_PER_S), 1199881);

    /* driven by a 10 ms tick, 4,000 bytes at 2,000 bytes/s take 2 s within one tick, in ~200 steps */
    int steps;
    uint64_t took = paced_transfer_ns(2000, 4000, 10 * UNITS_NS_PER_MS, &steps);
    CHECK(took >= 2 * UNITS_NS_PER_S - UNITS_NS_PER_S / 1000 && took <= 2 * UNITS_NS_PER_S + 10 * UNITS_NS_PER_MS);
    CHECK(steps >= 190 && steps <= 201);
    double held = 4000.0 * 1e9 / (double)took;
    CHECK(held > 2000 * 0.99 && held < 2000 * 1.01);
    /* a slow rate: one byte every 100 ms */
    took = paced_transfer_ns(10, 21, 10 * UNITS_NS_PER_MS, &steps);
    CHECK(took >= 2 * UNITS_NS_PER_S && took <= 2 * UNITS_NS_PER_S + 10 * UNITS_NS_PER_MS);
    CHECK_EQ_U(steps, 21);

    clients_stats_t a[CLIENTS_GROUPS], b[CLIENTS_GROUPS];
    CHECK(clients_stats_init(a) == 0);
    CHECK(clients_stats_init(b) == 0);
    a[CLIENTS_SLOW].requests = 3;
    a[CLIENTS_SLOW].send_bytes = 300;
    a[CLIENTS_SLOW].send_ns = 3 * UNITS_NS_PER_S;
    hist_record(a[CLIENTS_SLOW].latency_us, 3000000);
    b[CLIENTS_FAST].requests = 1000;
    hist_record(b[CLIENTS_FAST].latency_us, 200);
    clients_stats_merge(b, a);
    clients_stats_merge(b, a);
    CHECK_EQ_U(b[CLIENTS_SLOW].requests, 6);
    CHECK_EQ_U(b[CLIENTS_SLOW].send_bytes, 600);
    CHECK_EQ_U(b[CLIENTS_SLOW].latency_us->total, 2);
    CHECK_EQ_U(b[CLIENTS_FAST].requests, 1000);
    CHECK_EQ_U(b[CLIENTS_FAST].latency_us->total, 1);
    clients_stats_free(a);
    clients_stats_free(b);
    return test_summary("clients");
}
