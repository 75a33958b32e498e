/*
 * clients.c - the fast and slow client groups, see clients.h.
 */
#include "clients.h"

#include <math.h>
#include <string.h>

#include "figures.h"
#include "units.h"

uint64_t clients_pace_allowed(double bytes_per_s, uint64_t start_ns, uint64_t now_ns)
{
    if (now_ns < start_ns)
        return 0;
    return (uint64_t)floor((double)(now_ns - start_ns) * bytes_per_s / (double)UNITS_NS_PER_S) + 1;
}

uint64_t clients_pace_due_ns(double bytes_per_s, uint64_t start_ns, uint64_t bytes)
{
    if (bytes <= 1)
        return start_ns;
    return start_ns + (uint64_t)ceil((double)(bytes - 1) * (double)UNITS_NS_PER_S / bytes_per_s);
}

int clients_stats_init(clients_stats_t *groups)
{
    memset(groups, 0, sizeof(clients_stats_t) * CLIENTS_GROUPS);
    for (int g = 0; g < CLIENTS_GROUPS; g++) {
        groups[g].latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
        if (!groups[g].latency_us)
            return -1;
    }
    return 0;
}

void clients_stats_free(clients_stats_t *groups)
{
    for (int g = 0; g < CLIENTS_GROUPS; g++) {
        hist_free(groups[g].latency_us);
        groups[g].latency_us = NULL;
    }
}

void clients_stats_merge(clients_stats_t *dst, const clients_stats_t *src)
{
    for (int g = 0; g < CLIENTS_GROUPS; g++) {
        clients_stats_t *d = &dst[g];
        const clients_stats_t *s = &src[g];
        d->requests += s->requests;
        d->bytes += s->bytes;
        d->sent_bytes += s->sent_bytes;
        d->err_status += s->err_status;
        d->err_check += s->err_check;
        d->err_other += s->err_other;
        d->send_bytes += s->send_bytes;
        d->send_ns += s->send_ns;
        d->read_bytes += s->read_bytes;
        d->read_ns += s->read_ns;
        hist_merge(d->latency_us, s->latency_us);
    }
}

/* A rate asked (null when the group sends or reads at full speed). */
static void clients_json_rate(json_t *j, const char *key, double bytes_per_s)
{
    if (bytes_per_s > 0)
        json_real(j, key, bytes_per_s, 3);
    else
        json_null(j, key);
}

/* The rate held: bytes over the seconds they took (null when nothing was paced). */
static void clients_json_paced(json_t *j, const clients_stats_t *s)
{
    json_open_object(j, "paced");
    json_uint(j, "send_bytes", s->send_bytes);
    json_real(j, "send_s", (double)s->send_ns / 1e9, 6);
    if (s->send_ns)
        json_real(j, "send_bytes_per_s", (double)s->send_bytes * 1e9 / (double)s->send_ns, 3);
    else
        json_null(j, "send_bytes_per_s");
    json_uint(j, "read_bytes", s->read_bytes);
    json_real(j, "read_s", (double)s->read_ns / 1e9, 6);
    if (s->read_ns)
        json_real(j, "read_bytes_per_s", (double)s->read_bytes * 1e9 / (double)s->read_ns, 3);
    else
        json_null(j, "read_bytes_per_s");
    json_close_object(j);
}

static void clients_json_group(json_t *j, const char *key, const clients_stats_t *s, uint64_t connections,
                               double duration_s)
{
    json_open_object(j, key);
    json_uint(j, "connections", connections);
    json_uint(j, "requests", s->requests);
    json_real(j, "requests_per_s", figures_per_s(s->requests, duration_s), 3);
    json_uint(j, "bytes", s->bytes);
    json_uint(j, "sent_bytes", s->sent_bytes);
    figures_json_errors(j, s->err_status, s->err_check, s->err_other);
    figures_json_latency(j, "latency_us", s->latency_us, FIGURES_LATENCY_FULL);
    figures_json_histogram(j, "histogram", s->latency_us);
}

void clients_json(json_t *j, const clients_stats_t *groups, uint64_t fast_connections, const clients_slow_t *slow,
                  double duration_s)
{
    json_open_object(j, "clients");
    clients_json_group(j, "fast", &groups[CLIENTS_FAST], fast_connections, duration_s);
    json_close_object(j);
    clients_json_group(j, "slow", &groups[CLIENTS_SLOW], slow->connections, duration_s);
    clients_json_rate(j, "send_bytes_per_s", slow->send_bytes_per_s);
    clients_json_rate(j, "read_bytes_per_s", slow->read_bytes_per_s);
    clients_json_paced(j, &groups[CLIENTS_SLOW]);
    json_close_object(j);
    json_close_object(j);
}
