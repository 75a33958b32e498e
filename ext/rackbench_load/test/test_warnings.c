/*
 * test_warnings.c - the warnings as data: each with its code, its figures
 * and its sentence, in the order the JSON lists them.
 */
#include <string.h>

#include "config.h"
#include "test.h"
#include "warnings.h"
#include "worker.h"

static const warning_t *find(const warnings_t *w, const char *code)
{
    for (int i = 0; i < w->count; i++)
        if (strcmp(w->list[i].code, code) == 0)
            return &w->list[i];
    return NULL;
}

static double figure(const warning_t *one, const char *name)
{
    for (int f = 0; one && f < one->field_count; f++)
        if (strcmp(one->fields[f].name, name) == 0)
            return one->fields[f].value;
    return -1;
}

int main(void)
{
    config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.timeout_ns = 2000000000ULL;
    cfg.rate_per_s = 100;
    cfg.slow.connections = 2;
    cfg.slow.send_bytes_per_s = 1000;
    run_result_t r;
    memset(&r, 0, sizeof(r));
    r.latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    CHECK(censor_init(&r.cohort) == 0);
    CHECK(clients_stats_init(r.clients) == 0);
    r.duration_s = 2;

    warnings_t w;
    warnings_collect(&cfg, &r, &w);
    CHECK_EQ_U(w.count, 1);
    CHECK(strcmp(w.list[0].code, "no_requests") == 0);
    CHECK_EQ_U(w.list[0].field_count, 0);

    /* 200 answers, 10 of them failed; 238 due, 23 served; slow sends held at 700 of 1,000 bytes/s */
    r.counts.requests = 200;
    r.counts.err_status = 6;
    r.counts.err_check = 4;
    for (int i = 0; i < 238; i++)
        censor_issue(&r.cohort);
    for (int i = 0; i < 23; i++)
        censor_complete(&r.cohort, 1000);
    r.clients[CLIENTS_SLOW].send_bytes = 700;
    r.clients[CLIENTS_SLOW].send_ns = 1000000000ULL;
    warnings_collect(&cfg, &r, &w);
    const warning_t *answers = find(&w, "answers");
    CHECK(answers != NULL);
    CHECK(figure(answers, "failed") == 10 && figure(answers, "responses") == 200);
    CHECK(figure(answers, "status") == 6 && figure(answers, "check") == 4);
    CHECK(answers && strstr(answers->text, "5.0 % of responses failed their check") != NULL);
    const warning_t *shortfall = find(&w, "shortfall");
    CHECK(figure(shortfall, "served") == 23 && figure(shortfall, "due") == 238);
    CHECK(figure(shortfall, "target_per_s") == 100);
    CHECK(shortfall && strstr(shortfall->text, "served 23 of the 238 requests") != NULL);
    const warning_t *pace = find(&w, "slow_send");
    CHECK(figure(pace, "held_bytes_per_s") == 700 && figure(pace, "asked_bytes_per_s") == 1000);
    CHECK(find(&w, "slow_read") == NULL); /* full speed: nothing asked, nothing to hold */
    CHECK(find(&w, "no_requests") == NULL);

    hist_free(r.latency_us);
    censor_free(&r.cohort);
    clients_stats_free(r.clients);
    return test_summary("warnings");
}
