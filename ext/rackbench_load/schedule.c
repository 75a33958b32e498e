/*
 * schedule.c - the open loop's send times and the stall deadline, see schedule.h.
 *
 * The poisson generator is xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64; an exponential gap is -ln(1 - u) * mean for u uniform in [0, 1).
 */
#include "schedule.h"

#include <math.h>
#include <string.h>

static uint64_t schedule_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t schedule_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t schedule_random(uint64_t *s)
{
    uint64_t result = schedule_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = schedule_rotl(s[3], 45);
    return result;
}

/* An exponential gap of mean interval_ns. */
static double schedule_exponential_gap(schedule_t *s)
{
    double u = (double)(schedule_random(s->rng) >> 11) * 0x1.0p-53; /* [0, 1) */
    return -log1p(-u) * s->interval_ns;
}

void schedule_init(schedule_t *s, uint64_t start_ns, double rate_per_s, int arrivals, uint64_t seed)
{
    memset(s, 0, sizeof(*s));
    s->start_ns = start_ns;
    s->interval_ns = 1e9 / rate_per_s;
    s->arrivals = arrivals;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        s->rng[i] = schedule_splitmix64(&x);
    if (arrivals == SCHEDULE_POISSON) {
        s->next_offset_ns = schedule_exponential_gap(s);
        s->next_ns = start_ns + (uint64_t)s->next_offset_ns;
    } else {
        s->next_ns = start_ns;
    }
}

void schedule_advance(schedule_t *s)
{
    s->k++;
    if (s->arrivals == SCHEDULE_POISSON) {
        s->next_offset_ns += schedule_exponential_gap(s);
        s->next_ns = s->start_ns + (uint64_t)s->next_offset_ns;
    } else {
        s->next_ns = schedule_slot_ns(s->start_ns, s->interval_ns, s->k);
    }
}

uint64_t schedule_slot_ns(uint64_t start_ns, double interval_ns, uint64_t k)
{
    return start_ns + (uint64_t)((double)k * interval_ns);
}

int schedule_parse_arrivals(const char *name)
{
    if (strcmp(name, "uniform") == 0)
        return SCHEDULE_UNIFORM;
    if (strcmp(name, "poisson") == 0)
        return SCHEDULE_POISSON;
    return -1;
}

const char *schedule_arrivals_name(int arrivals)
{
    return arrivals == SCHEDULE_POISSON ? "poisson" : "uniform";
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
